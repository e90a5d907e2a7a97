"""One blueprint per resource, each built by a factory taking its dependencies."""
