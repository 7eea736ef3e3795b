-- serp_checks, whose rows migration 014 moved into check_snapshots. Its own migration: 014 dropped
-- it as its last statement, and a process killed between that DROP and 014's record in
-- schema_migrations left a read store where 014 ran again from its first statement, whose INSERT
-- reads serp_checks, and failed at every start (the rebuild too). A rerun of this one finds nothing
-- to drop. Where 014 already dropped the table (an install migrated before 018), nothing happens.
DROP TABLE IF EXISTS serp_checks;
