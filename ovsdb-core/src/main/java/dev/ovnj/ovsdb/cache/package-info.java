/** The replicated row cache: rows kept equal to the server by monitor updates, with indexes and events. */
package dev.ovnj.ovsdb.cache;
