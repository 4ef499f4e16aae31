package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives this replica's Lease up when it stops, so that a standby takes over on its next retry
 * instead of after the Lease expires (controller-runtime's {@code LeaderElectionReleaseOnCancel}).
 *
 * <p>JOSDK builds its fabric8 {@code LeaderElector} with release-on-cancel off and offers no way to
 * turn it on, and fabric8 7.5's own release writes a {@code null} holder through a JSON merge
 * patch, which leaves {@code holderIdentity} as it was (only the duration drops to 1 s). This
 * writes what client-go's release writes: an empty holder, a 1 s duration, renewed now; only while
 * the Lease still names this replica (the patch carries the resourceVersion read, so a Lease
 * another replica took meanwhile is left alone), and only once JOSDK's elector has stopped
 * renewing.
 */
final class LeaseRelease {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseRelease.class);

    private final KubernetesClient kube;
    private final LeaseLock lock;
    private final String description;

    LeaseRelease(KubernetesClient kube, String namespace, String name, String identity) {
        this.kube = kube;
        this.lock = new LeaseLock(namespace, name, identity);
        this.description = "Lease " + namespace + "/" + name;
    }

    /**
     * Clears the Lease's holder if it is still this replica; never throws.
     *
     * @return whether this replica held the Lease and gave it up
     */
    boolean release() {
        try {
            LeaderElectionRecord current = lock.get(kube);
            if (current == null || !lock.identity().equals(current.getHolderIdentity())) {
                return false;
            }
            ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
            lock.update(kube, new LeaderElectionRecord("", Duration.ofSeconds(1), now, now, current.getLeaderTransitions()));
            LOG.info("{} released by {}: a standby takes over on its next try", description, lock.identity());
            return true;
        } catch (KubernetesClientException e) {
            LOG.warn("{} not released ({}); a standby takes over when it expires", description, e.getMessage());
            return false;
        }
    }
}
