package dev.ovnj.examples.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application that only adds ovnj's starter: with {@code ovnj.northbound.remotes}
 * set it gets a started Northbound client, a {@code LoadBalancerEngine} to inject, the
 * {@code ovnj} health component in the readiness group and the client and engine meters.
 */
@SpringBootApplication
public class BootApplication {

    /**
     * Starts the application.
     *
     * @param args the command line, e.g. {@code --ovnj.northbound.remotes=tcp:127.0.0.1:6641}
     */
    public static void main(String[] args) {
        SpringApplication.run(BootApplication.class, args);
    }
}
