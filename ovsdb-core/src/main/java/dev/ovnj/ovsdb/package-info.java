/** ovnj's OVSDB client library; {@link dev.ovnj.ovsdb.OvsdbException} is the root of its exceptions. */
package dev.ovnj.ovsdb;
