@Configuration
public class DbConfig {
    @Value("${app.client-secret}")
    private String clientSecret;

    private final String password = System.getenv("DB_PASSWORD");
    private static final String PASSWORD_FIELD = "password";
    private String apiKey = props.getProperty("api.key");
}
