"""A blueprint whose paginated listings document their `X-Pagination` header properly."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint


class PagedBlueprint(Blueprint):  # type: ignore[misc]
    def _document_pagination_metadata(self, spec: Any, resp_doc: dict[str, Any]) -> None:
        # The header's value is a JSON object: OpenAPI 3 describes that with `content`.
        resp_doc.setdefault("headers", {})[self.PAGINATION_HEADER_NAME] = {
            "description": "pagination metadata (a JSON object)",
            "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/PaginationMetadata"}}},
        }
