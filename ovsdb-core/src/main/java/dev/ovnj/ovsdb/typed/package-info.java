/**
 * Typed access to OVSDB tables: column constants that build conditions and mutations from Java
 * values, table descriptors that map rows to generated value types, and operations built from
 * those value types, typed reads and events of the row cache ({@link dev.ovnj.ovsdb.typed.TypedCache}),
 * and the check of a server's schema against a compiled model
 * ({@link dev.ovnj.ovsdb.typed.SchemaCompatibility}). The generated model classes of
 * {@code dev.ovnj.ovsdb.codegen} are written against this package.
 */
package dev.ovnj.ovsdb.typed;
