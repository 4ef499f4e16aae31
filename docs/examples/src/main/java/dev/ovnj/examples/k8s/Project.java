package dev.ovnj.examples.k8s;

import java.util.Objects;

/**
 * The kube-dc style project a namespace's Services are exposed in: the project's router, the
 * router's external port whose network EIPs come from, and the project's switch.
 *
 * @param namespace the Kubernetes namespace whose Services are watched
 * @param router the Logical_Router the load balancers are attached to
 * @param externalPort the Logical_Router_Port whose network EIPs are allocated from
 * @param logicalSwitch the Logical_Switch the load balancers are attached to, so pods on it reach the EIPs too
 */
public record Project(String namespace, String router, String externalPort, String logicalSwitch) {

    /**
     * Requires every component.
     *
     * @param namespace the Kubernetes namespace whose Services are watched
     * @param router the Logical_Router the load balancers are attached to
     * @param externalPort the Logical_Router_Port whose network EIPs are allocated from
     * @param logicalSwitch the Logical_Switch the load balancers are attached to, so pods on it reach the EIPs too
     */
    public Project {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(externalPort, "externalPort");
        Objects.requireNonNull(logicalSwitch, "logicalSwitch");
    }

    /**
     * The engine owner of all load balancers of this namespace.
     *
     * @return {@code k8s/<namespace>}
     */
    public String owner() {
        return "k8s/" + namespace;
    }
}
