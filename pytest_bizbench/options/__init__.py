"""Every option and ini key, read once into frozen settings that the rest of a run is handed."""
