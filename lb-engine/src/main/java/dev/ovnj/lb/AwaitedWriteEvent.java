package dev.ovnj.lb;

import java.time.Duration;

/**
 * A spec written for the first time since it waited (WAITING for a router, switch or group that
 * did not exist, or in CONFLICT with another owner's row that has since gone), because what it
 * waited for changed: the spec becoming APPLIED, not drift. Reported apart from
 * {@link RepairEvent}s (see {@link EngineListener#onAwaitedWrite}), so that an alert on repairs
 * counts only what another writer changed.
 *
 * @param owner the owner of the written row
 * @param spec the spec's name
 * @param row the Load_Balancer row's name (or group name)
 * @param what what was written, e.g. "created", "attached to router r-edge"
 * @param waitedFor the spec's state and reason while it waited, e.g. {@code WAITING: router r-edge does not exist}
 * @param latency from the engine seeing the change it waited for to the write committed and cached
 */
public record AwaitedWriteEvent(String owner, String spec, String row, String what, String waitedFor, Duration latency) {
}
