/** Network faults between a client and a server: latency, partitions, resets, refused connections. */
package dev.ovnj.testkit.fault;
