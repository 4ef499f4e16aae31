package dev.ovnj.kubernetes;

import dev.ovnj.lb.Adoption;
import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.InvalidSpecException;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.SpecFailedException;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.lb.UnknownSpecException;
import dev.ovnj.lb.UpsertOption;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.nb.eip.EipExhaustedException;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceStatus;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one OVN load balancer per Service of type {@code LoadBalancer} (of the configured
 * {@code loadBalancerClass}, if one is set), on EIPs claimed for the Service (one per IP family it
 * is served in, {@link ServiceIpFamilies}), with its endpoints as backends and its fields as options
 * ({@link ServiceSpecs}); withdraws it when the Service is deleted or stops being such a Service.
 *
 * <p>Each reconciliation places the Service ({@link EipPools}: its {@link EipPool}'s router and
 * external port, the command line's, or wherever it already holds an address), resolves its
 * addresses on that port ({@link ServiceEips}), declares its spec
 * with {@link LoadBalancerEngine#upsert} and waits for the engine's verdict, then writes
 * {@code status.loadBalancer.ingress} (once applied) and the {@value LoadBalancerCondition#TYPE}
 * condition, with an Event whenever the condition changes. A Service not applied yet is looked at
 * again after {@link ControllerSettings#retryAfter()}. Only the finalizer's cleanup (the Service
 * deleted) and a Service that stopped being of type LoadBalancer remove a load balancer; both act on
 * an informer event, which comes after the informers synced.
 */
public final class ServiceLoadBalancerReconciler implements Reconciler<Service>, Cleaner<Service> {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceLoadBalancerReconciler.class);

    private final LoadBalancerEngine engine;
    private final EipPorts eips;
    private final EipPools pools;
    /** Spec name to the pool a refused Service waits for ("" for none); read by {@link EipPoolStatusWriter}, woken on a release. */
    private final Map<String, String> waiting = new java.util.concurrent.ConcurrentHashMap<>();
    /** The waiting Services an address released may serve (refused for want of an address, or a conflict on one). */
    private final Set<String> wakeOnRelease = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Documentation addresses (RFC 5737, RFC 3849) a spec is checked on before its real addresses are claimed. */
    private static final InetAddress PLACEHOLDER_V4 = IpAddresses.parse("192.0.2.1");
    private static final InetAddress PLACEHOLDER_V6 = IpAddresses.parse("2001:db8::1");
    private final Tenancy tenancy;
    /** Spec name to where the Service was placed last; read by {@link EipPoolStatusWriter}, entries go when the spec does. */
    private final Map<String, EipPools.Placement> placements = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Runnable placed = () -> { };
    private final ControllerSettings settings;
    private final ServiceEvents events;
    private final ControllerMetrics metrics;
    private final AdoptionSelectors adoptionSelectors;
    private final EngineEvents engineEvents;
    /** Spec name to the reason of the {@link BackendsHealthyCondition} last written; entries go when the spec does. */
    private final Map<String, String> backendsReasons = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Spec name to the {@link LoadBalancerCondition} last announced with an Event (seeded from the
     * Service's status when this process first sees it): an Event is recorded when the condition
     * differs from it, not when the possibly stale Service in hand lacks it. Entries go when the spec does.
     */
    private final Map<String, LoadBalancerCondition> announced = new java.util.concurrent.ConcurrentHashMap<>();

    ServiceLoadBalancerReconciler(LoadBalancerEngine engine, EipPorts eips, EipPools pools, ControllerSettings settings,
                                  ServiceEvents events, ControllerMetrics metrics, EngineEvents engineEvents,
                                  AdoptionSelectors adoptionSelectors) {
        this.adoptionSelectors = adoptionSelectors;
        this.engine = engine;
        this.eips = eips;
        this.pools = pools;
        this.settings = settings;
        this.events = events;
        this.metrics = metrics;
        this.engineEvents = engineEvents;
        this.tenancy = new Tenancy(settings);
    }

    /**
     * Watches the EndpointSlices of the same namespaces that carry the {@value ServiceSpecs#SERVICE_NAME_LABEL}
     * label, each mapped to its Service by it (kept in the form {@link CachedForms#slice} says), and
     * the engine's own news ({@link EngineEvents}).
     *
     * @param context JOSDK's context
     * @return the EndpointSlice and engine event sources
     */
    @Override
    public List<EventSource<?, Service>> prepareEventSources(EventSourceContext<Service> context) {
        InformerEventSourceConfiguration.Builder<EndpointSlice> slices = InformerEventSourceConfiguration
                .from(EndpointSlice.class, Service.class)
                .withSecondaryToPrimaryMapper(slice -> serviceOf(slice).map(name ->
                        Set.of(new ResourceID(name, slice.getMetadata().getNamespace()))).orElse(Set.of()))
                .withNamespacesInheritedFromController()
                // Only slices of a Service: the others map to none.
                .withLabelSelector(ServiceSpecs.SERVICE_NAME_LABEL);
        if (settings.namespaces().isEmpty()) {
            slices.withItemStore(new PrunedItemStore<>(CachedForms::slice));
        }
        // A pool created, edited or deleted: every Service it may concern is looked at again (pools
        // are few and change seldom; a Service whose placement did not change is a no-op).
        InformerEventSource<EipPool, Service> poolSource = new InformerEventSource<>(InformerEventSourceConfiguration
                .from(EipPool.class, Service.class)
                .withName("eip-pools")
                .withWatchAllNamespaces()
                // The controller's own status writes change no placement: without this, each one
                // would look at every Service of the pool again, for every address given.
                .withOnUpdateFilter((now, before) -> !Objects.equals(now.getSpec(), before.getSpec()))
                .withSecondaryToPrimaryMapper(pool -> {
                    // Called on every event of a pool: its status is due even when no Service is concerned.
                    placed.run();
                    return context.getPrimaryCache().list(s -> accepts(s) && EipPools.concerns(pool, s))
                            .map(ResourceID::fromResource).collect(java.util.stream.Collectors.toSet());
                })
                .build(), context);
        pools.readFrom(poolSource::list);
        return List.of(new InformerEventSource<>(slices.build(), context), poolSource, engineEvents.source());
    }

    /** Called after a Service was placed or withdrawn, for the pools' status; never throws. */
    void onPlacement(Runnable listener) {
        this.placed = listener;
    }

    /** The Services waiting for an address (refused before the engine was asked), to the pool they wait for ("" for none). */
    Map<String, String> waiting() {
        return java.util.Collections.unmodifiableMap(waiting);
    }

    /**
     * The condition this process last announced for each Service, by spec name (a Service's reason
     * is one of {@link ConditionReasons#ALL}): what a gauge of Services by reason reads.
     */
    Map<String, LoadBalancerCondition> conditions() {
        return java.util.Collections.unmodifiableMap(announced);
    }

    /** Where each Service was placed by its last reconciliation, by spec name. */
    Map<String, EipPools.Placement> placements() {
        return placements;
    }

    /**
     * Whether the controller serves a Service: type LoadBalancer, of its class.
     *
     * @param service a Service
     * @return true when its load balancer should exist
     */
    public boolean serves(Service service) {
        if (service.getSpec() == null || !"LoadBalancer".equals(service.getSpec().getType())) {
            return false;
        }
        return Objects.equals(settings.loadBalancerClass().orElse(null), service.getSpec().getLoadBalancerClass());
    }

    /** Whether the controller is to look at a Service at all: served, or still carrying its finalizer. */
    boolean accepts(Service service) {
        return serves(service) || service.hasFinalizer(ControllerSettings.FINALIZER);
    }

    /**
     * Brings the Service's load balancer, status and condition up to date.
     *
     * @param service the Service
     * @param context JOSDK's context, with the Service's EndpointSlices
     * @return the status patch, if the status changed
     */
    @Override
    public UpdateControl<Service> reconcile(Service service, Context<Service> context) throws Exception {
        long start = System.nanoTime();
        String reason = null;
        try {
            if (!serves(service)) {
                UpdateControl<Service> control = stopServing(service, context);
                reason = "";
                return control;
            }
            UpdateControl<Service> control = serve(service, context);
            // The condition as this reconciliation leaves it: the patched status, or the one the Service has.
            reason = LoadBalancerCondition.current(control.getResource().orElse(service)).map(c -> c.getReason())
                    .orElse(SpecStatus.State.PENDING.name());
            return control;
        } finally {
            metrics.reconciled(System.nanoTime() - start, reason);
            placed.run();
        }
    }

    /**
     * The Service is being deleted: removes its load balancer and releases its addresses; the
     * finalizer stays until both are done.
     *
     * @param service the Service
     * @param context JOSDK's context
     * @return remove the finalizer, or try again later
     */
    @Override
    public DeleteControl cleanup(Service service, Context<Service> context) {
        Optional<String> held = withdraw(service, context);
        if (held.isPresent()) {
            return DeleteControl.noFinalizerRemoval().rescheduleAfter(settings.retryAfter().toMillis());
        }
        return DeleteControl.defaultDelete();
    }

    /**
     * One pass: the Service read once ({@link ServiceIntent}), its placement decided where the
     * administrator's grants are applied ({@link Tenancy}), then its addresses, then its spec. A
     * refusal at any step writes nothing and leaves the Service holding no address it is not served on.
     */
    private UpdateControl<Service> serve(Service service, Context<Service> context) {
        ServiceIntent intent = ServiceIntent.of(service);
        String name = intent.specName();
        String claimOwner = intent.claimOwner();
        Map<String, List<InetAddress>> held = eips.held(claimOwner);
        Map<String, EipPools.State> states = pools.states();
        Tenancy.Facts facts = new Tenancy.Facts(states, held, pools.reserved(),
                settings.externalPort().map(pools::networksOf).orElse(List.of()), port -> pools.stayOn(name, port),
                namespace -> namespaceLabels(context, namespace));
        Tenancy.Decision decision = tenancy.decide(intent, facts);
        if (decision instanceof Tenancy.Refused refused) {
            placements.remove(name);
            return refuse(service, intent, refused.pool(), LoadBalancerCondition.failed(refused.reason(), refused.message()));
        }
        Tenancy.Granted granted = (Tenancy.Granted) decision;
        EipPools.Placement placement = granted.placement();
        if (placement.pool().isEmpty() && held.isEmpty()) {
            Optional<String> lagging = Optional.empty();
            try {
                lagging = EipPools.notSeenYet(service, states, context.getClient().resources(EipPool.class).list().getItems());
            } catch (KubernetesClientException e) {
                // The informer's view stands: a pool it lags behind on is then only a rare wrong port.
                LOG.warn("Service {}: EipPools not listed ({}); placed on what this process has seen", name, e.getMessage());
            }
            if (lagging.isPresent()) {
                LOG.info("Service {}: EipPool {} is not in this process's cache yet; placed once it is", name, lagging.get());
                return UpdateControl.<Service>noUpdate().rescheduleAfter(200);
            }
        }
        placements.put(name, placement);
        ControllerSettings target = placement.target();
        String port = target.externalPort().orElseThrow();
        ServiceEips portEips = eips.on(port);
        // A selector that matches no row would adopt nothing and leave a silent conflict.
        Optional<String> unmatched = intent.adoption().flatMap(a -> adoptionSelectors.unmatched(a, settings.owner(), name));
        if (unmatched.isPresent()) {
            return refuse(service, intent, placement.pool(),
                    LoadBalancerCondition.failed(ConditionReasons.INVALID_ANNOTATION, unmatched.get()));
        }
        ServiceIpFamilies families;
        try {
            families = ServiceIpFamilies.choose(service, portEips.families(), port);
        } catch (IllegalArgumentException e) {
            return refuse(service, intent, placement.pool(), LoadBalancerCondition.failed(ConditionReasons.ADDRESS_UNAVAILABLE, e.getMessage()));
        }
        List<EndpointSlice> slices = List.copyOf(context.getSecondaryResources(EndpointSlice.class));
        boolean gatewayRouter = pools.gatewayRouter(granted.attachment().router());
        try {
            // The spec is checked before any address is claimed (on documentation addresses of the
            // same families), so that a Service refused for its spec never holds a claim, not even
            // for the moment between a claim and the translation.
            ServiceSpecs.translate(service, slices, families.families().stream().map(f -> f == IpFamily.IPV4 ? PLACEHOLDER_V4
                    : PLACEHOLDER_V6).toList(), granted.attachment(), gatewayRouter, intent.healthCheck());
        } catch (IllegalArgumentException e) {
            return refuse(service, intent, placement.pool(), SourceRanges.refusal(service, e, SpecStatus.State.INVALID.name()));
        }
        List<InetAddress> addresses;
        try {
            Optional<Sharing> sharing = share(service, intent, context, portEips);
            if (sharing.isPresent()) {
                LoadBalancerCondition c = LoadBalancerCondition.failed(ConditionReasons.ADDRESS_CONFLICT, sharing.get().why());
                return sharing.get().keepsWorkingAddress() ? refuse(service, intent, placement.pool(), c) : refused(service, intent, c);
            }
            addresses = portEips.resolve(claimOwner, families.families(), intent.requested(), intent.adoption().isPresent(),
                    ip -> olderContender(service, claimOwner, ip, context), granted.exclusions());
            if (!claimOwner.equals(name)) {
                // Joined a group that already had an address, and held none of its own that worked: its own ones go.
                eips.releaseAll(name);
            }
        } catch (ServiceEips.Unavailable e) {
            return refuse(service, intent, placement.pool(), LoadBalancerCondition.failed(e.reason(), e.getMessage()));
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String reason = cause instanceof EipExhaustedException ? ConditionReasons.ADDRESS_UNAVAILABLE : ConditionReasons.ADDRESS_FAILED;
            String pool = placement.pool().map(p -> "EipPool " + p + " (" + placement.addresses().orElseThrow() + "): ").orElse("");
            return refuse(service, intent, placement.pool(), LoadBalancerCondition.failed(reason, pool + cause.getMessage()));
        }
        ServiceSpecs.Translation translation;
        try {
            translation = ServiceSpecs.translate(service, slices, addresses, granted.attachment(), gatewayRouter,
                    intent.healthCheck());
        } catch (IllegalArgumentException e) {
            // Refused before the engine is asked: the load balancer stays as it was, whole; an
            // address claimed for a Service never served goes.
            return refuse(service, intent, placement.pool(), SourceRanges.refusal(service, e, SpecStatus.State.INVALID.name()));
        }
        waiting.remove(name);
        wakeOnRelease.remove(name);
        List<String> notes = new ArrayList<>(translation.notes());
        families.note().ifPresent(notes::add);
        notes.addAll(placement.notes());
        backendsOutside(translation.spec(), granted.attachment().router()).ifPresent(notes::add);
        Adoption adopting = intent.adoption().map(a -> a.claimingAs(claimOwner)).orElse(null);
        return verdict(service, addresses, LoadBalancerCondition.of(declare(translation.spec(), adopting)).withNotes(notes),
                translation.clamped());
    }

    /**
     * The backends that lie outside every network of the router's ports, in words: OVN reaches them
     * only through a route, and a backend of another project's network is not served silently.
     * Empty when every backend is on the router's networks, or the router does not exist (WAITING says so).
     */
    private Optional<String> backendsOutside(LoadBalancerSpec spec, String router) {
        dev.ovnj.nb.eip.RouterNetworks networks = pools.routerNetworks();
        if (!networks.hasRouter(router)) {
            return Optional.empty();
        }
        java.util.SortedSet<String> outside = new java.util.TreeSet<>();
        for (dev.ovnj.lb.spec.VipSpec vip : spec.vips()) {
            for (String backend : vip.backends()) {
                try {
                    InetAddress ip = dev.ovnj.nb.ip.VipAddress.parse(backend).ip();
                    if (!networks.routes(router, ip)) {
                        outside.add(IpAddresses.format(ip));
                    }
                } catch (IllegalArgumentException malformed) {
                    // The engine names a malformed backend.
                }
            }
        }
        if (outside.isEmpty()) {
            return Optional.empty();
        }
        List<String> shown = outside.stream().limit(5).toList();
        return Optional.of("backends " + String.join(", ", shown) + (outside.size() > shown.size() ? " and " + (outside.size() - shown.size())
                + " more" : "") + " lie outside every network of router " + router + "'s ports " + networks.networks(router)
                + ": reached only through a route");
    }

    /**
     * A namespace's labels, read from the API server when a pool's {@code namespaceSelector} asks
     * (pools with one are rare); unreadable, none (the selector then admits it only if it matches
     * no label), with a warning.
     */
    private static Map<String, String> namespaceLabels(Context<Service> context, String namespace) {
        try {
            io.fabric8.kubernetes.api.model.Namespace ns = context.getClient().namespaces().withName(namespace).get();
            return ns == null || ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels();
        } catch (KubernetesClientException e) {
            LOG.warn("namespace {}: labels not read for an EipPool's namespaceSelector: {}", namespace, e.getMessage());
            return Map.of();
        }
    }

    /**
     * A Service refused before the engine is asked: nothing is written for it, it lets go of every
     * address it claims that no load balancer VIP uses (a working Service's address stays with its
     * load balancer), and it is recorded as waiting (for its pool, if it has one), so that an
     * address or pool becoming available reconciles it at once.
     */
    private UpdateControl<Service> refuse(Service service, ServiceIntent intent, Optional<String> pool, LoadBalancerCondition condition) {
        String name = intent.specName();
        try {
            if (eips.releaseUnused(name)) {
                wakeWaiting();
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Service {}: unused address claims not released yet: {}", name, e.toString());
        }
        waiting.put(name, pool.orElse(""));
        if (condition.reason().equals(ConditionReasons.ADDRESS_UNAVAILABLE) || condition.reason().equals(ConditionReasons.ADDRESS_CONFLICT)) {
            wakeOnRelease.add(name);
        } else {
            wakeOnRelease.remove(name);
        }
        return verdict(service, List.of(), condition, List.of());
    }

    /** Reconciles every Service waiting for an address: one was released. */
    private void wakeWaiting() {
        wakeOnRelease.forEach(engineEvents::reconcile);
    }

    /**
     * Why a Service with a sharing key may not have its ports on the group's address now.
     *
     * @param why in words, naming the port or address and the holder
     * @param keepsWorkingAddress true when the Service is served on an address of its own, which it keeps while it waits
     */
    private record Sharing(String why, boolean keepsWorkingAddress) {
    }

    /**
     * For a Service with a sharing key: refuses it when a sharer holding one of its ports keeps it
     * (the holder is the one whose load balancer exists; between two newcomers the older one), when
     * it is served on an address of its own other than the group's (joining never moves a working
     * address: the Service waits), or when it asks for an address other than the group's; else hands
     * its own addresses to the group if the group has none yet, so that joining moves nothing.
     */
    private Optional<Sharing> share(Service service, ServiceIntent intent, Context<Service> context, ServiceEips eips) throws Exception {
        if (intent.shareKey().isEmpty()) {
            return Optional.empty();
        }
        String key = intent.shareKey().get();
        String ns = intent.namespace();
        String claimOwner = intent.claimOwner();
        Map<String, SpecStatus> declared = engine.status(settings.owner());
        List<InetAddress> own = eips.claimsOf(intent.specName());
        List<InetAddress> groupBefore = eips.claimsOf(claimOwner);
        if (!own.isEmpty() && declared.containsKey(intent.specName())) {
            // Served on an address of its own: joining a group on another address would move it.
            Optional<InetAddress> moved = own.stream().filter(ip -> groupBefore.stream().anyMatch(g -> IpFamily.of(g) == IpFamily.of(ip)
                    && !g.equals(ip))).findFirst();
            if (moved.isPresent()) {
                InetAddress to = groupBefore.stream().filter(g -> IpFamily.of(g) == IpFamily.of(moved.get())).findFirst().orElseThrow();
                return Optional.of(new Sharing("joining the Services sharing " + ServiceAnnotations.SHARED_IP + " key " + key + " (on "
                        + IpAddresses.format(to) + ") would move its working address " + IpAddresses.format(moved.get())
                        + "; it keeps it and waits: remove the key, or re-create the Service to join", true));
            }
        }
        List<Service> sharers = AddressSharing.sharers(context.getPrimaryCache().list(ns).toList(), ns, key, this::serves);
        // A sharer holds its ports when its load balancer exists on the group's address (or on its
        // own, which becomes the group's while the group has none); one waiting to join does not.
        Optional<String> collision = AddressSharing.collision(service, sharers, s -> declared.containsKey(ServiceSpecs.specName(s))
                && (eips.claimsOf(ServiceSpecs.specName(s)).isEmpty() || groupBefore.isEmpty()));
        if (collision.isPresent()) {
            return Optional.of(new Sharing(collision.get(), false));
        }
        eips.handOver(intent.specName(), claimOwner);
        List<InetAddress> group = eips.claimsOf(claimOwner);
        for (InetAddress ip : intent.requestedIps()) {
            Optional<InetAddress> other = group.stream().filter(h -> IpFamily.of(h) == IpFamily.of(ip) && !h.equals(ip)).findFirst();
            if (other.isPresent()) {
                return Optional.of(new Sharing("the Services sharing " + ServiceAnnotations.SHARED_IP + " key " + key + " hold "
                        + IpAddresses.format(other.get()) + "; request that address or none", false));
            }
        }
        return Optional.empty();
    }

    /**
     * The oldest other Service waiting for a requested address: served, not deleting, older than
     * this one, of another claim owner, and asking for {@code ip}. Consulted only when nobody
     * holds the address, so the first to reconcile does not take it from an older one.
     */
    private Optional<String> olderContender(Service service, String claimOwner, InetAddress ip, Context<Service> context) {
        return context.getPrimaryCache().list(s -> s.getMetadata().getDeletionTimestamp() == null && serves(s)
                        && AddressSharing.AGE.compare(s, service) < 0 && !AddressSharing.claimOwner(s).equals(claimOwner)
                        && ServiceIntent.of(s).requestedIps().contains(ip))
                .min(AddressSharing.AGE).map(ServiceSpecs::specName);
    }


    /**
     * A Service refused its ports on a shared address: its load balancer (if it had one, before
     * an older sharer took the port) is removed so that the older one's VIP can be applied, and
     * its ingress cleared.
     */
    private UpdateControl<Service> refused(Service service, ServiceIntent intent, LoadBalancerCondition condition) {
        String name = intent.specName();
        waiting.put(name, placements.containsKey(name) ? placements.get(name).pool().orElse("") : "");
        wakeOnRelease.add(name);
        if (engine.status(settings.owner()).containsKey(name)) {
            try {
                removeKnown(name);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.warn("Service {}: load balancer not removed yet: {}", name, e.toString());
            }
        }
        try {
            eips.releaseUnused(name);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Service {}: unused address claims not released yet: {}", name, e.toString());
        }
        return verdict(service, List.of(), condition, List.of(), true);
    }

    /**
     * Declares the spec (adopting what the Service's {@value ServiceAnnotations#ADOPT} names, if
     * any) and returns the engine's verdict on it, whichever way the future ends.
     */
    private SpecStatus declare(LoadBalancerSpec spec, Adoption adoption) {
        try {
            // Kept declared when it fails (a conflict, a timeout): the engine writes it once it can,
            // as the Service still wants it, and its status events bring the Service back here.
            UpsertOption[] options = adoption == null ? new UpsertOption[] {UpsertOption.KEEP_DECLARED}
                    : new UpsertOption[] {UpsertOption.KEEP_DECLARED, adoption};
            ApplyResult result = engine.upsert(settings.owner(), spec, options).get(waitBound().toMillis(), TimeUnit.MILLISECONDS);
            return result.statuses().get(spec.name());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SpecFailedException failed) {
                return failed.status();
            }
            if (e.getCause() instanceof InvalidSpecException invalid) {
                return new SpecStatus(settings.owner(), spec.name(), SpecStatus.State.INVALID,
                        invalid.errors().stream().map(err -> err.field() + ": " + err.message()).toList(), List.of(), Set.of(), 0,
                        Optional.empty(), List.of(), Optional.empty(), 0, 0);
            }
            return pending(spec.name(), String.valueOf(e.getCause().getMessage()));
        } catch (TimeoutException e) {
            return pending(spec.name(), "no verdict yet: " + engine.availability());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return pending(spec.name(), "interrupted");
        }
    }

    private SpecStatus pending(String name, String reason) {
        SpecStatus known = engine.status(settings.owner()).get(name);
        if (known != null && known.state().settled()) {
            return known;
        }
        return new SpecStatus(settings.owner(), name, SpecStatus.State.PENDING, List.of(reason), List.of(), Set.of(), 0,
                Optional.empty(), List.of(), Optional.empty(), 0, 0);
    }

    /**
     * Writes the condition (with an Event when it changed, and a Warning Event per clamped field,
     * whose note is part of the condition) and, once applied, the ingress addresses: each with
     * {@code ipMode: VIP}, since traffic to it reaches the backends through OVN's load balancer
     * with the EIP as destination.
     */
    private UpdateControl<Service> verdict(Service service, List<InetAddress> addresses, LoadBalancerCondition condition,
                                           List<String> clamped) {
        return verdict(service, addresses, condition, clamped, false);
    }

    private UpdateControl<Service> verdict(Service service, List<InetAddress> addresses, LoadBalancerCondition condition,
                                           List<String> clamped, boolean clearIngress) {
        boolean applied = condition.status().equals("True");
        List<LoadBalancerIngress> ingress = applied ? addresses.stream()
                .map(ip -> new LoadBalancerIngressBuilder().withIp(IpAddresses.format(ip)).withIpMode("VIP").build()).toList()
                : clearIngress ? List.of() : currentIngress(service);
        SpecStatus known = engine.status(settings.owner()).get(ServiceSpecs.specName(service));
        BackendsHealthyCondition backends = known == null ? null : BackendsHealthyCondition.of(known);
        boolean changed = !condition.isOn(service) || !ingress.equals(currentIngress(service)) || backends != null && !backends.isOn(service);
        LoadBalancerCondition last = announced.computeIfAbsent(ServiceSpecs.specName(service),
                k -> LoadBalancerCondition.on(service).orElse(LoadBalancerCondition.NONE));
        if (!condition.equals(last)) {
            announced.put(ServiceSpecs.specName(service), condition);
            LOG.info("Service {}: {} {}", ServiceSpecs.specName(service), condition.reason(), condition.message());
            events.record(service, condition.warning(), condition.reason(), condition.message());
            clamped.forEach(field -> events.record(service, true, ConditionReasons.FIELD_CLAMPED, field));
            metrics.condition(condition.reason());
        }
        if (backends != null && backends.transition(service, backendsReasons.put(ServiceSpecs.specName(service), backends.reason()))) {
            events.record(service, backends.warning(), backends.reason(), backends.message());
        }
        UpdateControl<Service> control;
        if (changed) {
            ServiceStatus status = Optional.ofNullable(service.getStatus()).orElseGet(ServiceStatus::new);
            List<Condition> conditions = condition.replaceIn(service, Instant.now());
            status.setConditions(backends == null ? conditions : backends.replaceIn(conditions, service, Instant.now()));
            status.setLoadBalancer(new io.fabric8.kubernetes.api.model.LoadBalancerStatus(new ArrayList<>(ingress)));
            service.setStatus(status);
            control = UpdateControl.patchStatus(service);
        } else {
            control = UpdateControl.noUpdate();
        }
        return applied ? control : control.rescheduleAfter(settings.retryAfter().toMillis());
    }

    /** The Service is no longer of type LoadBalancer (or of the class): withdraw, then let it go. */
    private UpdateControl<Service> stopServing(Service service, Context<Service> context) {
        Optional<String> held = withdraw(service, context);
        if (held.isPresent()) {
            return UpdateControl.<Service>noUpdate().rescheduleAfter(settings.retryAfter().toMillis());
        }
        // Status first, then the finalizer, each on the object the previous write returned: the
        // second write would otherwise carry a stale resourceVersion and be refused.
        Service current = service;
        if (service.getStatus() != null && (!currentIngress(service).isEmpty() || LoadBalancerCondition.current(service).isPresent())) {
            current = context.getClient().resource(current).editStatus(s -> {
                s.getStatus().setLoadBalancer(new io.fabric8.kubernetes.api.model.LoadBalancerStatus(new ArrayList<>()));
                if (s.getStatus().getConditions() != null) {
                    s.getStatus().getConditions().removeIf(c -> LoadBalancerCondition.TYPE.equals(c.getType())
                            || BackendsHealthyCondition.TYPE.equals(c.getType()));
                }
                return s;
            });
        }
        context.getClient().resource(current).edit(s -> {
            s.getMetadata().getFinalizers().remove(ControllerSettings.FINALIZER);
            return s;
        });
        events.record(service, false, ConditionReasons.WITHDRAWN, "no longer a Service of type LoadBalancer of this controller: load balancer removed");
        return UpdateControl.noUpdate();
    }

    /**
     * Removes the Service's load balancer and releases its addresses.
     *
     * @return empty when both are gone, else why not (the engine holds the deletion, or an error)
     */
    private Optional<String> withdraw(Service service, Context<Service> context) {
        String name = ServiceSpecs.specName(service);
        try {
            removeKnown(name);
            SpecStatus left = engine.status(settings.owner()).get(name);
            if (left != null) {
                // The engine kept the rows (a state such as HELD, under a deletion budget): keep the
                // finalizer and the addresses, and say why.
                LoadBalancerCondition c = LoadBalancerCondition.of(left);
                events.record(service, true, c.reason(), "load balancer not removed yet: " + c.message());
                return Optional.of(c.reason());
            }
            eips.releaseAll(name);
            Optional<String> key = ServiceAnnotations.shareKey(service);
            if (key.isPresent()) {
                String ns = service.getMetadata().getNamespace();
                List<Service> others = AddressSharing.sharers(context.getPrimaryCache().list(ns).toList(), ns, key.get(), this::serves)
                        .stream().filter(s -> !ServiceSpecs.specName(s).equals(name)).toList();
                if (others.isEmpty()) {
                    eips.releaseAll(AddressSharing.owner(ns, key.get()));
                    LOG.info("Service {}: last of the Services sharing key {}: the shared address is released", name, key.get());
                }
            }
            placements.remove(name);
            waiting.remove(name);
            wakeOnRelease.remove(name);
            wakeWaiting();
            placed.run();
            engineEvents.forget(name);
            backendsReasons.remove(name);
            announced.remove(name);
            LOG.info("Service {}: load balancer removed", name);
            return Optional.empty();
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Service {}: load balancer not removed yet: {}", name, cause.toString());
            events.record(service, true, SpecStatus.State.FAILED.name(), "load balancer not removed yet: " + cause.getMessage());
            return Optional.of(SpecStatus.State.FAILED.name());
        }
    }

    /** Removes the Service's spec; one the engine never had (nor any row of it) is removed already. */
    private void removeKnown(String name) throws Exception {
        try {
            engine.remove(settings.owner(), name).get(waitBound().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownSpecException)) {
                throw e;
            }
        }
    }

    /** A little longer than the engine's own bound, so that its SpecTimeoutException arrives first. */
    private Duration waitBound() {
        return engine.requestTimeout().plusSeconds(2);
    }

    private static List<LoadBalancerIngress> currentIngress(Service service) {
        if (service.getStatus() == null || service.getStatus().getLoadBalancer() == null
                || service.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return List.copyOf(service.getStatus().getLoadBalancer().getIngress());
    }

    static Optional<String> serviceOf(EndpointSlice slice) {
        Map<String, String> labels = slice.getMetadata().getLabels();
        return labels == null ? Optional.empty() : Optional.ofNullable(labels.get(ServiceSpecs.SERVICE_NAME_LABEL));
    }
}
