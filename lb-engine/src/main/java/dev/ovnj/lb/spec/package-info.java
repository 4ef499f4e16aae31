/** Desired state: load balancer specs, their VIPs, options and validation. */
package dev.ovnj.lb.spec;
