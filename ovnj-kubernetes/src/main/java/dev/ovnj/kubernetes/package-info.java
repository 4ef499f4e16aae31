/**
 * A Java Operator SDK controller that gives every Kubernetes {@code Service} of type
 * {@code LoadBalancer} one OVN load balancer on an external IP: {@link dev.ovnj.kubernetes.OvnjKubernetesController}
 * runs {@link dev.ovnj.kubernetes.ServiceLoadBalancerReconciler} with leader election, and
 * {@link dev.ovnj.kubernetes.ControllerSettings} and the {@link dev.ovnj.kubernetes.EipPool}s say where the load
 * balancers go.
 */
package dev.ovnj.kubernetes;
