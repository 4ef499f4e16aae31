package dev.ovnj.lb;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A caller waiting for some specs to reach a verdict: an {@code apply} waits for all of its
 * owner's keys, an {@code upsert} or {@code remove} for one. Engine thread only.
 */
final class Request {
    /** What the caller asked for, which decides how a verdict completes the future. */
    enum Kind { APPLY, UPSERT, REMOVE }

    final Kind kind;
    final String owner;
    final CompletableFuture<ApplyResult> future;
    /** Keys still undecided, with the generation each must reach. */
    final Map<SpecKey, Long> waiting = new HashMap<>();

    Request(Kind kind, String owner, CompletableFuture<ApplyResult> future) {
        this.kind = kind;
        this.owner = owner;
        this.future = future;
    }
}
