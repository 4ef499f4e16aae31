/** Diff between desired load balancers and the cache, and the minimal transactions that close it. */
package dev.ovnj.lb.plan;
