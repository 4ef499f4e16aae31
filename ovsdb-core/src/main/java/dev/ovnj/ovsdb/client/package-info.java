/**
 * The OVSDB client: remotes, TLS, connection and reconnection, cluster leader tracking,
 * transactions with read-your-writes, locks, and the monitors that feed the row cache.
 */
package dev.ovnj.ovsdb.client;
