/**
 * Generates typed model sources from an {@code .ovsschema}: one Immutables value type per table
 * with typed column constants and row mapping, plus a database model listing the tables. The
 * generated code depends on {@code dev.ovnj.ovsdb.typed} and on {@code org.immutables:value}.
 */
package dev.ovnj.ovsdb.codegen;
