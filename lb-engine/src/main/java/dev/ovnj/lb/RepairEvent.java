package dev.ovnj.lb;

import java.time.Duration;

/**
 * A repair of drift that another client caused.
 *
 * @param owner the owner of the repaired row
 * @param row the Load_Balancer row's name (or group name)
 * @param what what was repaired, e.g. "recreated", "vips", "attached to router shalb-dev"
 * @param latency from the engine seeing the drift to the repair being committed and cached
 */
public record RepairEvent(String owner, String row, String what, Duration latency) {
}
