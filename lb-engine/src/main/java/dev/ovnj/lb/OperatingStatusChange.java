package dev.ovnj.lb;

import java.util.Map;

/**
 * A spec's operating status changed (see {@link EngineListener#onOperatingStatus}).
 *
 * @param owner the owner
 * @param spec the spec's name
 * @param before what it was ({@link OperatingStatus#UNKNOWN} before the first verdict)
 * @param now what it is
 * @param vips each VIP's status now, keyed as {@link SpecStatus#vipOperatingStatus()}
 */
public record OperatingStatusChange(String owner, String spec, OperatingStatus before, OperatingStatus now,
                                    Map<String, OperatingStatus> vips) {
    /**
     * Copies the map.
     *
     * @param owner the owner
     * @param spec the spec's name
     * @param before what it was
     * @param now what it is
     * @param vips each VIP's status now
     */
    public OperatingStatusChange {
        vips = Map.copyOf(vips);
    }
}
