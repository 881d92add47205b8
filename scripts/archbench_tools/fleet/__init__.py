"""Fleets and nodes: the model of normal across boards, node runs and their summary."""
