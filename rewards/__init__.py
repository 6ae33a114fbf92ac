"""The rubric core: data model, importers, verdicts, scorers, judges and reward functions."""
