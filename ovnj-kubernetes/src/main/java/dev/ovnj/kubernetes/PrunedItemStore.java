package dev.ovnj.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.function.UnaryOperator;

/**
 * An informer's store that keeps each object in the form the controller reads ({@link CachedForms})
 * rather than whole: the informer still hands its event handlers the whole object of each event,
 * only what stays in memory between events is smaller.
 *
 * <p>JOSDK gives one configured store to the informer of every namespace it watches, so a store is
 * only configured when the controller watches all namespaces (one informer): with several, one
 * namespace's relist would drop the others' objects from a shared store.
 *
 * @param <T> the resource type
 */
final class PrunedItemStore<T extends HasMetadata> extends BasicItemStore<T> {
    private final UnaryOperator<T> prune;

    PrunedItemStore(UnaryOperator<T> prune) {
        super(Cache::metaNamespaceKeyFunc);
        this.prune = prune;
    }

    @Override
    public T put(String key, T obj) {
        return super.put(key, prune.apply(obj));
    }
}
