-- A sample's population may be an uploaded table (API.md §Audits,
-- "Population checks"): `population: {"dataset_id": …}`, a dataset of the
-- same tenant. At most one of size, sampling fraction and table is set.
-- A population table cannot be deleted while a sample names it: the
-- service answers 409 `population_in_use` first, the foreign key guards the
-- race; retention keeps it until the pass after its last sample is gone.
ALTER TABLE datasets
    ADD COLUMN population_dataset_id UUID REFERENCES datasets (id),
    DROP CONSTRAINT datasets_one_population,
    ADD CONSTRAINT datasets_one_population CHECK (
        num_nonnulls(population_size, population_sampling_fraction, population_dataset_id) <= 1
    ),
    ADD CONSTRAINT datasets_population_not_itself CHECK (population_dataset_id <> id);

CREATE INDEX datasets_population_dataset_id
    ON datasets (population_dataset_id) WHERE population_dataset_id IS NOT NULL;
