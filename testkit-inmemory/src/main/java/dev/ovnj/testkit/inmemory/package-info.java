/**
 * An in-memory OVSDB server for tests: {@link dev.ovnj.testkit.inmemory.InMemoryOvsdbServer}.
 * It lives in a module of its own because it reuses ovsdb-core's wire, schema and data model,
 * while ovsdb-core's own tests depend on testkit.
 */
package dev.ovnj.testkit.inmemory;
