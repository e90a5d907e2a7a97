"""The pagination header written without a schema says what flask-smorest's own says."""

from __future__ import annotations

import json

from flask_smorest import Blueprint

from api.paging import PagedBlueprint


def test_the_pagination_metadata_is_flask_smorests():
    for item_count in (0, 1, 9, 10, 11, 95):
        for page_size in (1, 10, 100):
            for page in (1, 2, 3, 10, 11, 1000):
                ours = PagedBlueprint._make_pagination_metadata(page, page_size, item_count)
                theirs = Blueprint._make_pagination_metadata(page, page_size, item_count)
                assert json.dumps(ours) == json.dumps(theirs), (page, page_size, item_count)
