package dev.ovnj.cli;

import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * The README's demo: a throw-away Northbound database on loopback with the seed topology of a
 * kube-dc project (router {@code shalb-dev} with its external port on 168.119.17.51/28, switch
 * {@code shalb-dev-default}) and a load balancer on an EIP attached to both.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a local NB ovsdb-server, publish a load balancer on an EIP, show it, stop.")
final class DemoCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        PrintStream out = System.out;
        try (OvsdbServer server = OvsdbServer.start()) {
            out.println("started ovsdb-server (OVN_Northbound " + dev.ovnj.testkit.Schemas.NB_VERSION + ") on " + server.remote());
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("lr-add", "shalb-dev");
            nbctl.run("lrp-add", "shalb-dev", "shalb-dev-ext", "02:00:00:00:00:01", "168.119.17.51/28");
            nbctl.run("ls-add", "shalb-dev-default");
            out.println("seed topology: router shalb-dev (external port 168.119.17.51/28), switch shalb-dev-default");
            nbctl.run("lb-add", "shalb-dev-etcd-lb-tcp", "168.119.17.51:2379", "10.1.0.40:2379,10.1.0.41:2379", "tcp");
            nbctl.run("lr-lb-add", "shalb-dev", "shalb-dev-etcd-lb-tcp");
            nbctl.run("ls-lb-add", "shalb-dev-default", "shalb-dev-etcd-lb-tcp");
            out.println();
            out.println("$ ovn-nbctl lb-list");
            out.println(nbctl.run("lb-list"));
            out.println("$ ovn-nbctl lr-lb-list shalb-dev");
            out.println(nbctl.run("lr-lb-list", "shalb-dev"));
            out.println("$ ovn-nbctl ls-lb-list shalb-dev-default");
            out.println(nbctl.run("ls-lb-list", "shalb-dev-default"));
            out.println();
            out.println("stopping ovsdb-server");
        }
        return 0;
    }
}
