/**
 * Typed access to OVSDB tables: column constants that build conditions and mutations from Java
 * values, table descriptors that map rows to generated value types, and operations built from
 * those value types. The generated model classes of {@code dev.ovnj.ovsdb.codegen} are written
 * against this package.
 */
package dev.ovnj.ovsdb.typed;
