#!/bin/sh
# Run by the postgres image on a new volume (compose.yaml): the replica's replication connection needs an entry of
# its own in pg_hba.conf ("all" does not cover it), with the same password as every other connection.
echo "host replication all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
