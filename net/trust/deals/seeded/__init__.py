"""The seeded deal: the host commits to a secret, the players contribute randomness, the
engine deals from the seed, and the secret is revealed at the hand's end."""
