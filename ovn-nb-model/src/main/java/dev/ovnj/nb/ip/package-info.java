/**
 * IPv4 and IPv6 addresses in the forms the OVN Northbound database writes them: literals,
 * networks, ranges and load balancer VIP keys. Pure values and parsing; no cache, no policy.
 */
package dev.ovnj.nb.ip;
