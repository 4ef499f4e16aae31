package dev.ovnj.lb;

import java.time.Duration;
import java.util.Optional;

/**
 * The engine's configuration, as the builder set it.
 *
 * @param batchWindow how long an idle engine waits for more changes before planning (zero: at once)
 * @param maxOpsPerTransaction soft limit of operations per transaction
 * @param maxPendingRequests callers that may wait at once before new ones fail fast
 * @param minRetry first backoff of a spec after a retriable error
 * @param maxRetry largest backoff of a spec
 * @param lockName the OVSDB lock to write under, if any
 * @param eipPolicy what to do with a VIP outside its router's networks
 * @param stallTimeout how long one engine step may run before the engine reports itself stalled
 * @param requestTimeout how long a caller's future may wait for a verdict before it fails with {@link SpecTimeoutException}
 * @param ownerLocks whether each owner's rows are written only while holding that owner's OVSDB lock
 * @param deletionBudget how much of an owner's rows one apply may delete before the deletions are held
 */
record EngineSettings(Duration batchWindow, int maxOpsPerTransaction, int maxPendingRequests, Duration minRetry,
                      Duration maxRetry, Optional<String> lockName, EipPolicy eipPolicy, Duration stallTimeout,
                      Duration requestTimeout, boolean ownerLocks, DeletionBudget deletionBudget) {
}
