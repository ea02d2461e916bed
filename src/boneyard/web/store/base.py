"""The declarative base of every table of the store, apart from the tables themselves, so that
the schema's migrations (``schema.py``) read the models without importing the stores."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


SCHEMA_LOCK = 0x626F6E6579
"""The PostgreSQL advisory lock held while the schema is made or upgraded ("boney")."""
