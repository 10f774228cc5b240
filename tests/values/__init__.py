"""States as values, pacru.Game and linear record reading (issue 12)."""
