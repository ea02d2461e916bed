//! Fewest-move search for the OYNO puzzle on bit masks (`boneyard/games/oyno/search.py`).
