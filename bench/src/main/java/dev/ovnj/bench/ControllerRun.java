package dev.ovnj.bench;

/**
 * What the {@code controller} scenario measured at one size, and the figures derived from it.
 * Every CPU figure covers the same window: from the controller process's start until it was idle
 * with every Service served. The per-Service figures are taken over those of the same process
 * serving no Service (the baseline: JVM start, Northbound sync, empty informers), so that a
 * fixed cost does not shrink as N grows and hide a cost that grows faster than N.
 *
 * @param services Services (each with one EndpointSlice of 2 endpoints)
 * @param ingressSeconds from the controller's start until the last Service had its ingress address
 * @param controllerCpu the controller process's CPU seconds (JVM start, JIT and GC included)
 * @param mockCpu the mock API server's CPU seconds
 * @param ovsdbCpu ovsdb-server's CPU seconds
 * @param harnessCpu the harness's own CPU seconds (its watch of the Services)
 * @param liveHeapBytes the controller's heap after full collections, every Service served
 * @param baseline the same process serving no Service
 */
record ControllerRun(int services, double ingressSeconds, double controllerCpu, double mockCpu, double ovsdbCpu, double harnessCpu,
        double liveHeapBytes, Baseline baseline) {

    /**
     * A controller serving no Service, measured the same way.
     *
     * @param servingSeconds from its start to its serving line
     * @param cpu its CPU seconds from its start until idle
     * @param liveHeapBytes its heap after full collections
     */
    record Baseline(double servingSeconds, double cpu, double liveHeapBytes) {
    }

    /** Wall milliseconds per Service until every Service had its ingress, over the baseline's time to serving. */
    double perServiceMillis() {
        return (ingressSeconds - baseline.servingSeconds()) * 1000 / services;
    }

    /** The controller's CPU milliseconds per Service, over the baseline's. */
    double cpuPerServiceMillis() {
        return (controllerCpu - baseline.cpu()) * 1000 / services;
    }

    /** The controller's heap per Service in KB (1,000 bytes), over the baseline's. */
    double heapPerServiceKb() {
        return (liveHeapBytes - baseline.liveHeapBytes()) / 1000 / services;
    }

    /** CPU of every process of the run in the window: controller, mock API server, ovsdb-server, harness. */
    double totalCpu() {
        return controllerCpu + mockCpu + ovsdbCpu + harnessCpu;
    }

    /** The controller's share of that CPU (0-1). */
    double controllerShare() {
        return controllerCpu / totalCpu();
    }

    /** The mock API server's share of that CPU (0-1). */
    double mockShare() {
        return mockCpu / totalCpu();
    }
}
