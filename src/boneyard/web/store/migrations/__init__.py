"""The store's schema migrations (Alembic): ``versions/`` holds one revision per change of the
tables, the first of them the schema as it stood before migrations (``0001``). Shipped inside
the package, so a wheel can upgrade a database; run by ``store/schema.py``."""
