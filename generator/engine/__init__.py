"""Engine: the simulation core (state, setup interpreter) that game data drives."""
