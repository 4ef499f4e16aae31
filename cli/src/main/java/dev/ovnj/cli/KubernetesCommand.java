package dev.ovnj.cli;

import dev.ovnj.kubernetes.ControllerSettings;
import dev.ovnj.kubernetes.OvnjKubernetesController;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.NotConnectedException;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.TlsConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Runs the Service LoadBalancer controller of {@code ovnj-kubernetes} until stopped. Every option
 * may also come from an {@code OVNJ_*} environment variable (the option's name in capitals,
 * dashes as underscores), which is how the Deployment under {@code deploy/} configures it.
 */
@Command(name = "kubernetes", mixinStandardHelpOptions = true,
        description = "Run the Kubernetes Service LoadBalancer controller: one OVN load balancer per Service of type "
                + "LoadBalancer, on an EIP of the router's external port, until interrupted. Each option also reads OVNJ_<NAME>.")
final class KubernetesCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE", defaultValue = "${env:OVNJ_KUBECONFIG}",
            description = "Kubeconfig file (default: the in-cluster service account, else ~/.kube/config or $KUBECONFIG).")
    private Path kubeconfig;

    @Option(names = "--db", paramLabel = "REMOTES", defaultValue = "${env:OVNJ_DB}",
            description = "Northbound remotes, comma-separated (required).")
    private String db;

    @Option(names = "--sb", paramLabel = "REMOTES", defaultValue = "${env:OVNJ_SB}",
            description = "Southbound remotes, for backend health in the Services' conditions (optional).")
    private String sb;

    @Option(names = {"-p", "--private-key"}, paramLabel = "FILE", defaultValue = "${env:OVNJ_PRIVATE_KEY}",
            description = "Private key (PEM) for ssl: remotes.")
    private Path privateKey;

    @Option(names = {"-c", "--certificate"}, paramLabel = "FILE", defaultValue = "${env:OVNJ_CERTIFICATE}",
            description = "Certificate (PEM) for ssl: remotes.")
    private Path certificate;

    @Option(names = {"-C", "--ca-cert"}, paramLabel = "FILE", defaultValue = "${env:OVNJ_CA_CERT}",
            description = "CA certificate (PEM) for ssl: remotes.")
    private Path caCert;

    @Option(names = "--router", paramLabel = "NAME", defaultValue = "${env:OVNJ_ROUTER}",
            description = "Logical_Router the load balancers are attached to (required).")
    private String router;

    @Option(names = "--switch", paramLabel = "NAME", defaultValue = "${env:OVNJ_SWITCH}",
            description = "Logical_Switch they are attached to.")
    private String logicalSwitch;

    @Option(names = "--group", paramLabel = "NAME", defaultValue = "${env:OVNJ_GROUP}",
            description = "Load_Balancer_Group they are attached through.")
    private String group;

    @Option(names = "--external-port", paramLabel = "NAME", defaultValue = "${env:OVNJ_EXTERNAL_PORT}",
            description = "Logical_Router_Port whose networks the EIPs come from (required).")
    private String externalPort;

    @Option(names = "--load-balancer-class", paramLabel = "CLASS", defaultValue = "${env:OVNJ_LOAD_BALANCER_CLASS}",
            description = "Serve only Services with this spec.loadBalancerClass (default: only those without one).")
    private String loadBalancerClass;

    @Option(names = "--namespaces", paramLabel = "NS[,NS...]", defaultValue = "${env:OVNJ_NAMESPACES}",
            description = "Watch only these namespaces (default: all).")
    private String namespaces;

    @Option(names = "--owner", paramLabel = "NAME", defaultValue = "${env:OVNJ_OWNER:-ovnj-kubernetes}",
            description = "Engine owner of the load balancers written (default: ${DEFAULT-VALUE}).")
    private String owner;

    @Option(names = "--lease-namespace", paramLabel = "NS", defaultValue = "${env:OVNJ_LEASE_NAMESPACE}",
            description = "Namespace of the leader-election Lease; without it every replica writes, so run one.")
    private String leaseNamespace;

    @Option(names = "--lease-name", paramLabel = "NAME", defaultValue = "${env:OVNJ_LEASE_NAME:-ovnj-kubernetes}",
            description = "Name of the Lease (default: ${DEFAULT-VALUE}).")
    private String leaseName;

    @Option(names = "--server-side-apply", paramLabel = "BOOL", defaultValue = "${env:OVNJ_SERVER_SIDE_APPLY:-true}",
            description = "Patch Services with server-side apply (default: ${DEFAULT-VALUE}); false uses JSON patches.")
    private boolean serverSideApply;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "${env:OVNJ_TIMEOUT:-30}",
            description = "Give up at start when the database cannot be reached within this time (default: ${DEFAULT-VALUE}).")
    private double timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        ControllerSettings settings = settings();
        Duration timeout = Duration.ofMillis((long) (timeoutSeconds * 1000));
        try (ShutdownSignal signal = ShutdownSignal.install();
             OvsdbClient nb = client(db, "OVN_Northbound", "--db");
             OvsdbClient south = sb == null || sb.isBlank() ? null : client(sb, "OVN_Southbound", "--sb")) {
            LoadBalancerEngine.Builder engineBuilder = LoadBalancerEngine.builder(nb);
            if (south != null) {
                engineBuilder.southbound(south);
            }
            try (LoadBalancerEngine engine = engineBuilder.build().start();
                 KubernetesClient kube = new KubernetesClientBuilder().withConfig(kubeConfig()).build()) {
                start(nb, "--db", timeout);
                if (south != null) {
                    start(south, "--sb", timeout);
                }
                try (OvnjKubernetesController controller = OvnjKubernetesController.builder(kube, nb, engine, settings).build()) {
                    controller.start();
                    System.out.println("serving Services of type LoadBalancer on router " + settings.router() + " (owner "
                            + settings.owner() + ", identity " + controller.identity() + "); Ctrl-C stops");
                    System.out.flush();
                    while (!signal.await(Duration.ofHours(1))) {
                        // Run until a signal asks to stop.
                    }
                }
            }
        }
        return 0;
    }

    /** The settings from the options, each missing one named with its environment variable. */
    ControllerSettings settings() {
        require(db, "--db", "OVNJ_DB");
        require(router, "--router", "OVNJ_ROUTER");
        require(externalPort, "--external-port", "OVNJ_EXTERNAL_PORT");
        if (present(logicalSwitch) && present(group)) {
            throw new ParameterException(spec.commandLine(), "--switch and --group exclude each other: attach directly or through a group");
        }
        ControllerSettings s = ControllerSettings.of(router, externalPort).withOwner(owner).withServerSideApply(serverSideApply);
        if (present(logicalSwitch)) {
            s = s.withSwitch(logicalSwitch);
        }
        if (present(group)) {
            s = s.withGroup(group);
        }
        if (present(loadBalancerClass)) {
            s = s.withLoadBalancerClass(loadBalancerClass);
        }
        if (present(namespaces)) {
            s = s.withNamespaces(Arrays.stream(namespaces.split(",")).map(String::trim).filter(n -> !n.isEmpty())
                    .collect(Collectors.toSet()));
        }
        if (present(leaseNamespace)) {
            s = s.withLease(leaseNamespace, leaseName);
        }
        return s;
    }

    private Config kubeConfig() throws IOException {
        if (kubeconfig == null) {
            return Config.autoConfigure(null);
        }
        if (!Files.isReadable(kubeconfig)) {
            throw new CliFailure("--kubeconfig " + kubeconfig + ": no such readable file");
        }
        return Config.fromKubeconfig(Files.readString(kubeconfig));
    }

    private OvsdbClient client(String remotes, String database, String option) {
        OvsdbClient.Builder b = OvsdbClient.builder().database(database)
                .monitor(database.equals("OVN_Northbound") ? LoadBalancerEngine.monitorRequest()
                        : LoadBalancerEngine.southboundMonitorRequest())
                .backoff(Duration.ofMillis(100), Duration.ofSeconds(2));
        try {
            b.remotes(remotes);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(option + ": " + e.getMessage(), e);
        }
        Optional<TlsConfig> tls = tls(remotes, option);
        tls.ifPresent(b::tls);
        return b.build();
    }

    private Optional<TlsConfig> tls(String remotes, String option) {
        if (privateKey != null || certificate != null || caCert != null) {
            if (privateKey == null || certificate == null || caCert == null) {
                throw new CliFailure("ssl: remotes need all of --private-key, --certificate and --ca-cert");
            }
            return Optional.of(new TlsConfig(privateKey, certificate, caCert));
        }
        if (remotes.contains("ssl:")) {
            throw new CliFailure(option + " " + remotes + ": ssl: remotes need --private-key, --certificate and --ca-cert");
        }
        return Optional.empty();
    }

    private static void start(OvsdbClient client, String option, Duration timeout) {
        try {
            client.startAndWait(timeout);
        } catch (NotConnectedException e) {
            throw new CliFailure("cannot reach the database of " + option + " within " + DatabaseOptions.seconds(timeout), e);
        }
    }

    private void require(String value, String option, String env) {
        if (!present(value)) {
            throw new ParameterException(spec.commandLine(), option + " (or " + env + ") is required");
        }
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}
