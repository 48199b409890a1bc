"""Pure rules engines for the card room: no I/O, no framework, randomness only from seeds."""
