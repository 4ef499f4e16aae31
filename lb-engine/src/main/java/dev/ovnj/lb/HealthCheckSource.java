package dev.ovnj.lb;

import java.util.Objects;

/**
 * The address OVN's service monitor probes one backend from (the source half of its
 * {@code ip_port_mappings} entry), and whether the spec gave it or the engine chose it.
 *
 * @param address the source address, canonical text ({@code 10.0.0.254}, {@code fd00:10::1})
 * @param chosen true when the engine chose it (no {@code healthCheck.sourceIp} and no
 *     {@code healthCheckSources} entry for the backend's switch and family), false when the spec gave it
 */
public record HealthCheckSource(String address, boolean chosen) {

    /**
     * Checks for null.
     *
     * @param address the source address
     * @param chosen whether the engine chose it
     */
    public HealthCheckSource {
        Objects.requireNonNull(address, "address");
    }

    /**
     * The source in words, as {@code ovnj} prints it.
     *
     * @return e.g. {@code 10.0.0.254 (chosen)} or {@code 10.0.0.250 (given)}
     */
    public String describe() {
        return address + (chosen ? " (chosen)" : " (given)");
    }
}
