/**
 * Real {@code ovsdb-server} processes on loopback for tests: standalone servers, RAFT clusters,
 * relays, an {@code ovn-nbctl} runner for cross-checks, and the commands they are built from.
 */
package dev.ovnj.testkit;
