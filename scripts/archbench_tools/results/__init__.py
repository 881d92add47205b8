"""Result files: reading and validating archbench JSON, the results archive, method identifiers."""
