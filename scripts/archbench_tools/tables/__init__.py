"""Tables from results and catalogues: counters, features, CV, energy, ceilings, roofline, models, references, SASS."""
