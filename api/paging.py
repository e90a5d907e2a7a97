"""A blueprint whose paginated listings document their `X-Pagination` header properly and
write it without a schema dump."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint, abort

# The last page any listing serves: a bound like every other input's (a page past the
# listing's end is an empty one).
MAX_PAGE = 100_000


class PagedBlueprint(Blueprint):  # type: ignore[misc]
    def paginate(self, pager: Any = None, **kwargs: Any) -> Callable[..., Any]:
        """flask-smorest's, with the page number bounded by `MAX_PAGE` (422, and the
        bound in the document)."""
        paginated = super().paginate(pager, **kwargs)

        def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(func)
            def bounded(*args: Any, **view_kwargs: Any) -> Any:
                params = view_kwargs.get("pagination_parameters")
                if params is not None and params.page > MAX_PAGE:
                    abort(422, errors={"query": {"page": [
                        f"Must be greater than or equal to 1 and less than or equal to "
                        f"{MAX_PAGE}."]}})
                return func(*args, **view_kwargs)

            wrapper = paginated(bounded)
            parameters = wrapper._apidoc["pagination"]["parameters"]
            parameters["schema"] = _bounded_page(parameters["schema"])
            return wrapper

        return decorator

    def _document_pagination_metadata(self, spec: Any, resp_doc: dict[str, Any]) -> None:
        # The header's value is a JSON object: OpenAPI 3 describes that with `content`.
        resp_doc.setdefault("headers", {})[self.PAGINATION_HEADER_NAME] = {
            "description": "pagination metadata (a JSON object)",
            "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/PaginationMetadata"}}},
        }

    @staticmethod
    def _make_pagination_metadata(page: int, page_size: int,
                                  item_count: int) -> dict[str, int]:
        """The documented `PaginationMetadata` object, built directly: flask-smorest's
        own dumps it through a new schema instance, which cost more than the rest of a
        player's inbox page (a test holds the two to the same answers)."""
        pages = -(-item_count // page_size)
        meta = {"total": item_count, "total_pages": pages}
        if pages:
            meta.update(first_page=1, last_page=pages)
            if page <= pages:
                meta["page"] = page
                if page > 1:
                    meta["previous_page"] = page - 1
                if page < pages:
                    meta["next_page"] = page + 1
        return meta


def _bounded_page(schema: type[Any]) -> type[Any]:
    """The pagination parameters' schema, documenting the page's maximum."""
    import marshmallow as ma

    class BoundedPagination(schema):  # type: ignore[misc, valid-type]
        page = ma.fields.Integer(load_default=schema().fields["page"].load_default,
                                 validate=ma.validate.Range(min=1, max=MAX_PAGE))

    BoundedPagination.__name__ = schema.__name__
    return BoundedPagination
