package dev.ovnj.lb;

import java.time.Duration;

/**
 * A repair of drift that another client caused: rows of a spec the database held as declared
 * (APPLIED) were changed or deleted by someone else, and the engine wrote them back. A spec
 * written once what it waited for appeared is no repair (see {@link AwaitedWriteEvent}).
 *
 * @param owner the owner of the repaired row
 * @param row the Load_Balancer row's name (or group name)
 * @param what what was repaired, e.g. "recreated", "vips", "attached to router shalb-dev"
 * @param latency from the engine seeing the drift to the repair being committed and cached
 */
public record RepairEvent(String owner, String row, String what, Duration latency) {
}
