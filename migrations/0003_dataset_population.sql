-- What a dataset is a sample of (API.md §Datasets, `population`): the size
-- of the population or the sampling fraction, for the population risk
-- models of the release report. At most one is set; neither means unknown.
ALTER TABLE datasets
    ADD COLUMN population_size BIGINT CHECK (population_size >= 1),
    ADD COLUMN population_sampling_fraction DOUBLE PRECISION
        CHECK (population_sampling_fraction > 0 AND population_sampling_fraction <= 1),
    ADD CONSTRAINT datasets_one_population
        CHECK (population_size IS NULL OR population_sampling_fraction IS NULL);
