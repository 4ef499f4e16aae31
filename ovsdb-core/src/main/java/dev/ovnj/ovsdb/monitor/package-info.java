/** Monitor requests (monitor, monitor_cond, monitor_cond_since) and the updates they produce. */
package dev.ovnj.ovsdb.monitor;
