/**
 * Read-only diagnosis of load balancers across the OVN Northbound and Southbound databases: the
 * troubleshooting runbook (does it exist, is it attached, is the VIP routable, is there a gateway,
 * did northd turn it into flows, are the backends alive, what does {@code ovn-trace} say) as
 * {@link dev.ovnj.lb.diagnosis.Finding}s with stable codes. Start at
 * {@link dev.ovnj.lb.diagnosis.Diagnosis}.
 */
package dev.ovnj.lb.diagnosis;
