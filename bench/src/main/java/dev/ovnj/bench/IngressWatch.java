package dev.ovnj.bench;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches the Services of a namespace as a user's {@code kubectl get -w} would: which have an
 * address in {@code status.loadBalancer.ingress}, when the last of them got one, and how many
 * times any Service was changed (a restarted controller that rewrites statuses shows here). One
 * watch, not a poll: listing 10,000 Services every second would load the mock API server more
 * than the controller does.
 */
final class IngressWatch implements AutoCloseable {
    private final Set<String> withIngress = ConcurrentHashMap.newKeySet();
    private final AtomicLong updates = new AtomicLong();
    private final SharedIndexInformer<Service> informer;

    IngressWatch(KubernetesClient kube, String namespace) {
        informer = kube.services().inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Service s) {
                seen(s);
            }

            @Override
            public void onUpdate(Service before, Service after) {
                updates.incrementAndGet();
                seen(after);
            }

            @Override
            public void onDelete(Service s, boolean unknownFinalState) {
                withIngress.remove(s.getMetadata().getName());
            }
        }, 0);
    }

    private void seen(Service s) {
        var status = s.getStatus();
        if (status != null && status.getLoadBalancer() != null && status.getLoadBalancer().getIngress() != null
                && !status.getLoadBalancer().getIngress().isEmpty()) {
            withIngress.add(s.getMetadata().getName());
        } else {
            withIngress.remove(s.getMetadata().getName());
        }
    }

    /** Services that have an ingress address now. */
    int withIngress() {
        return withIngress.size();
    }

    /** Changes to any Service seen so far. */
    long updates() {
        return updates.get();
    }

    /**
     * Waits until {@code n} Services have an ingress address; fails when none got one for
     * {@code stallSeconds}, after {@code boundSeconds} in all, or as soon as {@code alive} says
     * the controller is gone. A stall, not the whole time, is the usual bound: how long the whole
     * takes is what is measured, and it varies tenfold with the code and the machine's load.
     *
     * @return {@link System#nanoTime()} when the n-th got it (within the 20 ms poll)
     */
    long awaitIngress(int n, long stallSeconds, long boundSeconds, java.util.function.BooleanSupplier alive) {
        long start = System.nanoTime();
        long lastReport = start;
        long progressAt = start;
        int seen = withIngress.size();
        while (withIngress.size() < n) {
            long now = System.nanoTime();
            int count = withIngress.size();
            if (count != seen) {
                seen = count;
                progressAt = now;
            }
            if (now - progressAt > TimeUnit.SECONDS.toNanos(stallSeconds) || now - start > TimeUnit.SECONDS.toNanos(boundSeconds)
                    || !alive.getAsBoolean()) {
                throw new IllegalStateException(count + " of " + n + " Services have an ingress address after "
                        + Proc.fmt("%.0f s (the last one %.0f s ago)", (now - start) / 1e9, (now - progressAt) / 1e9)
                        + (alive.getAsBoolean() ? "" : "; the controller exited"));
            }
            if (now - lastReport > TimeUnit.SECONDS.toNanos(60)) {
                // Progress for a run that takes minutes (and for bench/profile.sh's time windows).
                System.out.println("   " + java.time.LocalTime.now().withNano(0) + " " + count + " of " + n + " with ingress");
                lastReport = now;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return System.nanoTime();
    }

    @Override
    public void close() {
        informer.close();
    }
}
