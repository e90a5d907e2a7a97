"""One module (or small package) per rule family; `domain.registry` lists them."""
