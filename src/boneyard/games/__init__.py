"""One package per game. Each registers its games with ``boneyard.core.registry.register``."""
