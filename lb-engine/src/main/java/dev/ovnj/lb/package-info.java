/**
 * The load-balancer engine: owners declare {@link dev.ovnj.lb.spec.LoadBalancerSpec}s, the
 * engine keeps the OVN Northbound database equal to them and repairs drift.
 */
package dev.ovnj.lb;
