#!/usr/bin/env python3
"""Writes the secrets corpus, tests/fixtures/secrets/: one realistic paste per kind of secret of
issue 28 (kubectl output, or what people paste beside it: logs, `base64 -d` of a Secret's value,
`env` in a container), and expect.json, which says for each paste which values must go, which names
must stay, and where the secret's shape is documented. The secret values are fake, drawn from a
seeded generator: the files are the same on every run. Checked by
crates/engine/tests/redact.rs (every_secret_of_the_secrets_corpus_is_redacted_and_every_name_kept).
Usage: OUT=tests/fixtures/secrets python3 scripts/gen-secrets-corpus.py"""
import base64, json, random, os, string
R = random.Random(2826)
A = string.ascii_letters + string.digits
def rnd(n, chars=A): return ''.join(R.choice(chars) for _ in range(n))
def b64(s): return base64.b64encode(s.encode()).decode()
out = os.environ['OUT']
os.makedirs(out, exist_ok=True)
cases = []
def case(file, kind, source, text, go, stay, note):
    with open(os.path.join(out, file), 'w') as f: f.write(text)
    cases.append({"file": file, "kind": kind, "source": source, "note": note, "go": go, "stay": stay})

# 1 -v=8 response body
pw = rnd(20); user = "orders-svc"; cfg = "host=db.shop.svc port=5432 sslmode=require"
body = json.dumps({"kind":"Secret","apiVersion":"v1","metadata":{"name":"orders-db","namespace":"shop","uid":"6f1c2a3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b","resourceVersion":"918273","creationTimestamp":"2026-11-30T08:12:44Z"},"data":{"db.conf":b64(cfg),"password":b64(pw),"username":b64(user)},"type":"Opaque"}, separators=(',',':'))
t = f"""$ kubectl get secret orders-db -n shop -v=8
I1201 09:14:02.118734   48211 loader.go:395] Config loaded from file:  /home/dev/.kube/config
I1201 09:14:02.121950   48211 round_trippers.go:463] GET https://10.20.0.10:6443/api/v1/namespaces/shop/secrets/orders-db
I1201 09:14:02.121967   48211 round_trippers.go:469] Request Headers:
I1201 09:14:02.121975   48211 round_trippers.go:473]     Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json
I1201 09:14:02.121983   48211 round_trippers.go:473]     User-Agent: kubectl/v1.29.3 (linux/amd64) kubernetes/6813625
I1201 09:14:02.139402   48211 round_trippers.go:574] Response Status: 200 OK in 17 milliseconds
I1201 09:14:02.139421   48211 round_trippers.go:577] Response Headers:
I1201 09:14:02.139429   48211 round_trippers.go:580]     Content-Type: application/json
I1201 09:14:02.139436   48211 round_trippers.go:580]     Date: Tue, 01 Dec 2026 09:14:02 GMT
I1201 09:14:02.139851   48211 request.go:1212] Response Body: {body}
NAME        TYPE     DATA   AGE
orders-db   Opaque   3      25h
"""
case("v8-response-body.txt","secret-data","kubectl -v=8 prints the response body as one line of JSON (round_trippers.go / request.go)",t,[b64(cfg),b64(pw),b64(user)],["orders-db","db.conf","password","username"],"a Secret inside a kubectl -v=8 Response Body")

# 2 stringData dockerconfigjson
rp = rnd(24); ru = "ci-pusher"
auth = b64(f"{ru}:{rp}")
t = f"""$ cat regcred.yaml
apiVersion: v1
kind: Secret
metadata:
  name: regcred
  namespace: shop
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: |
    {{
      "auths": {{
        "registry.shop.example:5000": {{
          "username": "{ru}",
          "password": "{rp}",
          "auth": "{auth}"
        }}
      }}
    }}
$ kubectl apply -f regcred.yaml
secret/regcred created
"""
case("stringdata-dockerconfigjson.yaml","docker-config","Kubernetes docs: Pull an Image from a Private Registry (kubernetes.io/dockerconfigjson)",t,[rp,auth],["regcred","registry.shop.example:5000",".dockerconfigjson"],"stringData holding a .dockerconfigjson JSON block")

# 3 data without kind
k1 = rnd(32); k2 = rnd(18)
t = f"""$ kubectl get secret payments-api -n shop -o yaml | grep -A3 '^data:'
data:
  api-key: {b64(k1)}
  signing-salt: {b64(k2)}
  endpoint: {b64('https://api.payments.example/v2')}
"""
case("data-without-kind.yaml","secret-data","a grep of kubectl get secret -o yaml: the data block without kind",t,[b64(k1),b64(k2)],["api-key","signing-salt","endpoint","payments-api"],"data: pasted without kind: Secret")

# 4 flow env
dbp = rnd(16); tok = rnd(40)
t = f"""$ cat deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: billing
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {{app: billing}}
  template:
    metadata:
      labels: {{app: billing}}
    spec:
      containers:
      - name: billing
        image: shop/billing:4.2.0
        env:
        - {{name: DB_HOST, value: pg.shop.svc}}
        - {{name: DB_PASSWORD, value: {dbp}}}
        - {{name: UPSTREAM_API_TOKEN, value: "{tok}"}}
        - {{name: DB_USER, valueFrom: {{secretKeyRef: {{name: billing-db, key: username}}}}}}
"""
case("flow-env.yaml","env-secret","YAML 1.2 flow mappings in a manifest's env list",t,[dbp,tok],["DB_PASSWORD","UPSTREAM_API_TOKEN","billing-db","username","pg.shop.svc"],"flow-style env items")

# 5 azure storage key
azk = b64(rnd(48))[:86] + "=="
azk = base64.b64encode(bytes(R.getrandbits(8) for _ in range(64))).decode()
t = f"""$ kubectl exec -n media uploader-7d9f8c6b5-x2kqp -- env
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
HOSTNAME=uploader-7d9f8c6b5-x2kqp
AZURE_STORAGE_ACCOUNT=shopmediaprod
AZURE_STORAGE_KEY={azk}
AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=shopmediaprod;AccountKey={azk};EndpointSuffix=core.windows.net
KUBERNETES_SERVICE_HOST=10.0.0.1
KUBERNETES_SERVICE_PORT=443
HOME=/root
"""
case("azure-storage-key.txt","env-secret","Azure Storage: account access keys and connection strings (learn.microsoft.com/azure/storage/common/storage-account-keys-manage)",t,[azk],["AZURE_STORAGE_KEY","shopmediaprod","AccountKey"],"AZURE_STORAGE_KEY and AccountKey")

# 6 SAS sig
sig = base64.b64encode(bytes(R.getrandbits(8) for _ in range(32))).decode()
sigq = sig.replace('+','%2B').replace('/','%2F').replace('=','%3D')
t = f"""$ kubectl logs -n media thumbnailer-5c6d7b8f9-pq4rt --tail=4
2026-12-01T09:20:11.402Z INFO  fetching https://shopmediaprod.blob.core.windows.net/originals/2026/11/sku-88121.jpg?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-02T09:20:11Z&st=2026-12-01T09:20:11Z&spr=https&sig={sigq}
2026-12-01T09:20:11.611Z ERROR blob download failed: status 403 AuthenticationFailed: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.
2026-12-01T09:20:11.612Z WARN  retrying in 2s (attempt 3/5)
2026-12-01T09:20:13.615Z ERROR giving up on sku-88121.jpg
"""
case("azure-sas-sig.txt","url-credential","Azure Storage: shared access signature URI, the sig parameter (learn.microsoft.com/rest/api/storageservices/create-service-sas)",t,[sigq],["AuthenticationFailed","shopmediaprod","sku-88121.jpg"],"SAS sig= in a blob URL")

# 7 base64 PEM outside a Secret
pem = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(b64(rnd(48))[:64] for _ in range(6)) + "\n-----END RSA PRIVATE KEY-----\n"
cert = "-----BEGIN CERTIFICATE-----\n" + "\n".join(b64(rnd(48))[:64] for _ in range(4)) + "\n-----END CERTIFICATE-----\n"
t = f"""$ kubectl get configmap edge-tls -n ingress -o yaml
apiVersion: v1
data:
  tls.crt: {b64(cert)}
  tls.key: {b64(pem)}
kind: ConfigMap
metadata:
  creationTimestamp: "2026-11-28T14:02:51Z"
  name: edge-tls
  namespace: ingress
  resourceVersion: "771201"
  uid: 0b7e2f1a-9c3d-4e5f-a6b7-c8d9e0f1a2b3
"""
case("base64-pem-configmap.yaml","private-key","RFC 7468 PEM private key, base64-encoded again (LS0tLS1CRUdJTi is '-----BEGIN')",t,[b64(pem)],["tls.crt","tls.key","edge-tls",b64(cert)],"a base64 PEM key outside a Secret (the certificate stays)")

# 8 PGP
pgp_lines = [b64(rnd(48))[:64] for _ in range(8)]
pgp = "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(pgp_lines) + "\n=" + rnd(4) + "\n-----END PGP PRIVATE KEY BLOCK-----"
ind = "\n".join("    "+l if l else "" for l in pgp.split("\n"))
t = f"""$ kubectl get configmap release-signing -n ci -o yaml
apiVersion: v1
data:
  fingerprint: 7A3C1E9B4D2F6A8C0E1B3D5F7A9C2E4B6D8F0A1C
  signing.asc: |
{ind}
kind: ConfigMap
metadata:
  name: release-signing
  namespace: ci
"""
case("pgp-private-key.yaml","private-key","RFC 4880 ASCII armor: BEGIN PGP PRIVATE KEY BLOCK",t,pgp_lines,["signing.asc","fingerprint","release-signing"],"a PGP private key block")

# 9 npm
npm = "npm_" + rnd(36)
t = f"""$ kubectl logs job/publish-ui -n ci
+ echo "//registry.npmjs.org/:_authToken={npm}" > ~/.npmrc
+ npm publish --access public
npm notice
npm notice 📦  @shop/ui-kit@3.8.1
npm ERR! code E403
npm ERR! 403 403 Forbidden - PUT https://registry.npmjs.org/@shop%2fui-kit - You do not have permission to publish "@shop/ui-kit".
"""
case("npm-token.txt","cloud-key","npm: access tokens, npm_ prefix (docs.npmjs.com/about-access-tokens; GitHub secret scanning patterns)",t,[npm],["_authToken","@shop/ui-kit","E403"],"npm_ token")

# 10 docker PAT
dpat = "dckr_pat_" + rnd(27, A+"-_")
t = f"""$ kubectl describe pod image-sync-28891450-7hxwp -n ci
Name:             image-sync-28891450-7hxwp
Namespace:        ci
Node:             ci-pool-2/10.30.4.12
Status:           Failed
Containers:
  sync:
    Image:      docker:25-cli
    Command:
      sh
      -c
      docker login -u shopci -p {dpat} && docker push shop/api:3.1
    State:          Terminated
      Reason:       Error
      Exit Code:    1
    Environment:    <none>
Events:
  Type     Reason     Age   From               Message
  ----     ------     ----  ----               -------
  Normal   Scheduled  2m    default-scheduler  Successfully assigned ci/image-sync-28891450-7hxwp to ci-pool-2
  Normal   Started    2m    kubelet            Started container sync
"""
case("docker-pat.txt","cloud-key","Docker Hub personal access tokens, dckr_pat_ prefix (docs.docker.com/security/for-developers/access-tokens)",t,[dpat],["shopci","image-sync-28891450-7hxwp"],"dckr_pat_ token in a command")

# 11 SendGrid
sg = "SG." + rnd(22, A+"-_") + "." + rnd(43, A+"-_")
t = f"""$ kubectl get deploy mailer -n shop -o yaml | grep -A6 args
        args:
        - --provider=sendgrid
        - --from=orders@shop.example
        - --relay-key
        - {sg}
        image: shop/mailer:1.9.0
        imagePullPolicy: IfNotPresent
"""
case("sendgrid-key.yaml","cloud-key","SendGrid API keys, SG.<22>.<43> (docs.sendgrid.com/ui/account-and-settings/api-keys; GitHub secret scanning patterns)",t,[sg],["--relay-key","mailer","sendgrid"],"SG. key as the next args item")

# 12 hf
hf = "hf_" + rnd(34, string.ascii_letters)
t = f"""$ kubectl logs llm-warmup-0 -n ml -c fetch-weights
+ huggingface-cli login --token {hf}
Token is valid (permission: read).
Your token has been saved to /root/.cache/huggingface/token
Login successful
Fetching 9 files: 100%|██████████| 9/9 [00:41<00:00,  4.61s/it]
"""
case("hf-token.txt","cloud-key","Hugging Face user access tokens, hf_ prefix (huggingface.co/docs/hub/security-tokens)",t,[hf],["huggingface-cli","llm-warmup-0"],"hf_ token")

# 13 stripe sk_test
skt = "sk_test_" + rnd(99)[:24+R.randint(0,50)]
t = f"""$ kubectl get configmap checkout-env -n shop -o yaml
apiVersion: v1
data:
  STRIPE_MODE: test
  STRIPE_KEY: {skt}
  CHECKOUT_URL: https://checkout.shop.example
kind: ConfigMap
metadata:
  name: checkout-env
  namespace: shop
"""
case("stripe-test-key.yaml","cloud-key","Stripe API keys, sk_test_/sk_live_/rk_ prefixes (docs.stripe.com/keys)",t,[skt],["STRIPE_KEY","STRIPE_MODE","checkout-env"],"sk_test_ key under a key not named like a secret")

# 14 whsec
wh = "whsec_" + rnd(32)
t = f"""$ kubectl describe configmap checkout-webhooks -n shop
Name:         checkout-webhooks
Namespace:    shop
Labels:       app=checkout
Annotations:  <none>

Data
====
endpoint:
----
https://checkout.shop.example/stripe/events
stripe.endpoint.verifier:
----
{wh}

BinaryData
====

Events:  <none>
"""
case("stripe-webhook-secret.txt","cloud-key","Stripe webhook signing secrets, whsec_ prefix (docs.stripe.com/webhooks#verify-events)",t,[wh],["stripe.endpoint.verifier","checkout-webhooks","endpoint"],"whsec_ secret in describe configmap")

# 15 ya29
ya = "ya29." + rnd(150, A+"-_")
t = f"""$ gcloud auth print-access-token
{ya}
$ kubectl get pods -n analytics
error: You must be logged in to the server (Unauthorized)
"""
case("google-access-token.txt","cloud-key","Google OAuth 2.0 access tokens, ya29. prefix (developers.google.com/identity/protocols/oauth2)",t,[ya],["Unauthorized"],"ya29. token on a line alone")

# 16 vault
hvs = "hvs." + rnd(91, A+"-_")
acc = rnd(24)
t = f"""$ kubectl exec -n vault vault-0 -- vault login {hvs}
Success! You are now authenticated. The token information displayed below
is already stored in the token helper. You do NOT need to run "vault login"
again. Future Vault requests will automatically use this token.

Key                  Value
---                  -----
token                {hvs}
token_accessor       {acc}
token_duration       ∞
token_renewable      false
token_policies       ["root"]
identity_policies    []
policies             ["root"]
"""
case("vault-login.txt","cloud-key","HashiCorp Vault service tokens, hvs. prefix (developer.hashicorp.com/vault/docs/concepts/tokens#token-prefixes)",t,[hvs],["token_accessor","vault-0","root"],"vault login hvs. token, as argument and in the output table")

# 17 decoded docker auths
du = "robot$shop+ci"; dp = rnd(32)
dauth = b64(f"{du}:{dp}")
dj = json.dumps({"auths":{"harbor.shop.example":{"username":du,"password":dp,"auth":dauth}}}, separators=(',',':'))
t = f"""$ kubectl get secret harbor-pull -n shop -o jsonpath='{{.data.\\.dockerconfigjson}}' | base64 -d
{dj}
$ kubectl get pods -n shop
NAME                      READY   STATUS             RESTARTS   AGE
api-6c7d8f9b5-mm2pq       0/1     ImagePullBackOff   0          6m
"""
case("docker-auths-decoded.txt","docker-config","docker config.json auths: auth is base64 of user:password (docs.docker.com/reference/cli/docker/login)",t,[dp,dauth],["harbor.shop.example","harbor-pull","ImagePullBackOff"],"the auth field of decoded docker auths")

# 18 aws ini
akid = "AKIA" + rnd(16, string.ascii_uppercase+string.digits)
asec = rnd(40, A+"/+")
t = f"""$ kubectl get secret aws-creds -n backup -o jsonpath='{{.data.credentials}}' | base64 -d
[default]
aws_access_key_id = {akid}
aws_secret_access_key = {asec}
region = eu-west-1
"""
case("aws-ini.txt","env-secret","AWS CLI credentials file format (docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html)",t,[akid,asec],["aws_secret_access_key","aws_access_key_id","eu-west-1"],"AWS INI credentials file")

# 19 slack webhook
sl = f"T{rnd(8,string.ascii_uppercase+string.digits)}/B{rnd(10,string.ascii_uppercase+string.digits)}/{rnd(24)}"
t = f"""$ kubectl get secret alertmanager-main -n monitoring -o jsonpath='{{.data.alertmanager\\.yaml}}' | base64 -d
global:
  resolve_timeout: 5m
  slack_api_url: https://hooks.slack.com/services/{sl}
route:
  receiver: slack-oncall
receivers:
- name: slack-oncall
  slack_configs:
  - channel: '#oncall'
    send_resolved: true
"""
case("slack-webhook.yaml","cloud-key","Slack incoming webhooks, https://hooks.slack.com/services/T…/B…/… (api.slack.com/messaging/webhooks)",t,[sl],["slack_api_url","slack-oncall","#oncall"],"a Slack webhook path")

# 20 SECRET_KEY_BASE
skb = rnd(128, "0123456789abcdef")
t = f"""$ kubectl get pod storefront-84b7c9d6f-lq2zw -n shop -o yaml
apiVersion: v1
kind: Pod
metadata:
  name: storefront-84b7c9d6f-lq2zw
  namespace: shop
spec:
  containers:
  - env:
    - name: RAILS_ENV
      value: production
    - name: SECRET_KEY_BASE
      value: {skb}
    image: shop/storefront:7.1.2
    name: storefront
  nodeName: pool-a-3
status:
  phase: Running
"""
case("rails-secret-key-base.yaml","env-secret","Rails secret_key_base (guides.rubyonrails.org/security.html#custom-credentials)",t,[skb],["SECRET_KEY_BASE","RAILS_ENV","storefront"],"SECRET_KEY_BASE in env")

# 21 HMAC_KEY describe
hk = rnd(44, A+"+/")
t = f"""$ kubectl describe pod links-5f6c7d8b9-zz8qk -n shop
Name:             links-5f6c7d8b9-zz8qk
Namespace:        shop
Node:             pool-a-1/10.30.2.7
Status:           Running
Containers:
  links:
    Image:          shop/links:2.0.3
    State:          Running
      Started:      Tue, 01 Dec 2026 08:01:12 +0000
    Ready:          True
    Restart Count:  0
    Environment:
      LINK_BASE_URL:  https://s.shop.example
      HMAC_KEY:       {hk}
      DB_PASSWORD:    <set to the key 'password' in secret 'links-db'>  Optional: false
Events:  <none>
"""
case("hmac-key-describe.txt","env-secret","a signing key named HMAC_KEY (RFC 2104)",t,[hk],["HMAC_KEY","links-db","password","LINK_BASE_URL"],"HMAC_KEY in describe's Environment")

# 22 erlang cookie
ec = rnd(32, string.ascii_uppercase)
t = f"""$ kubectl get statefulset rabbitmq -n queue -o yaml | grep -B1 -A1 COOKIE
        - name: RABBITMQ_ERLANG_COOKIE
          value: {ec}
        - name: RABBITMQ_NODENAME
"""
case("rabbitmq-erlang-cookie.yaml","env-secret","RabbitMQ: the Erlang cookie is a shared secret (rabbitmq.com/docs/clustering#erlang-cookie)",t,[ec],["RABBITMQ_ERLANG_COOKIE","RABBITMQ_NODENAME"],"RABBITMQ_ERLANG_COOKIE")

# 23 mysql -p
mp = rnd(14)
t = f"""$ kubectl get cronjob db-backup -n shop -o yaml | grep -A8 'containers:'
          containers:
          - command:
            - sh
            - -c
            - mysqldump -h mysql.shop.svc -uroot -p{mp} --all-databases | gzip > /backup/all.sql.gz
            image: mysql:8.0.36
            name: dump
          restartPolicy: OnFailure
"""
case("mysql-p-flag.yaml","env-secret","mysql and mysqldump --password / -p<password> (dev.mysql.com/doc/refman/8.0/en/connection-options.html)",t,[mp],["mysqldump","mysql.shop.svc","--all-databases"],"-pPASS in a shell command")

# 24 --db-password
fp1 = rnd(18); fp2 = rnd(20); fp3 = rnd(16)
t = f"""$ kubectl get pod ledger-0 -n shop -o json | jq '.spec.containers[0].args'
[
  "--listen=:8080",
  "--db-password",
  "{fp1}",
  "--admin-password={fp2}"
]
$ kubectl get pod ledger-migrate-0 -n shop -o yaml | grep -A4 args
    args:
    - migrate
    - --db-password
    - {fp3}
    - --dry-run=false
"""
case("password-flags.txt","env-secret","command-line flags --x-password VALUE and --x-password=VALUE",t,[fp1,fp2,fp3],["--db-password","--admin-password","--dry-run=false","migrate"],"password flags with the value next or after =")

# 25 properties
sp = rnd(22); jk = rnd(40)
t = f"""$ kubectl get configmap inventory-config -n shop -o yaml
apiVersion: v1
data:
  application.properties: |
    server.port = 8080
    spring.datasource.url = jdbc:postgresql://pg.shop.svc:5432/inventory
    spring.datasource.username = inventory
    spring.datasource.password = {sp}
    app.jwt.signing-key = {jk}
    logging.level.root = INFO
kind: ConfigMap
metadata:
  name: inventory-config
  namespace: shop
"""
case("properties-file.yaml","env-secret","Java .properties: key = value (docs.oracle.com/javase/8/docs/api/java/util/Properties.html#load-java.io.Reader-)",t,[sp,jk],["spring.datasource.password","app.jwt.signing-key","inventory-config","server.port"],".properties lines k = v")

# 26 multi-line values
w = ["quartz","mimosa","tundra","falcon","ember","lagoon","cobalt","saffron","glacier","orchid","basalt","juniper","meteor","walnut"]
phrase = " ".join(R.choice(w)+str(R.randint(10,99)) for _ in range(16))
words = phrase.split(" ")
l1 = " ".join(words[:8]); l2 = " ".join(words[8:])
q = rnd(30)+" "+rnd(30)+" "+rnd(30)
qw = q.split(" ")
t = f"""$ kubectl get pod signer-7b8c9d6f5-k4m2n -n ci -o yaml
apiVersion: v1
kind: Pod
metadata:
  name: signer-7b8c9d6f5-k4m2n
  namespace: ci
spec:
  containers:
  - env:
    - name: GPG_PASSPHRASE
      value: {l1}
        {l2}
    - name: SIGNING_TOKEN
      value: "{qw[0]} {qw[1]}
        {qw[2]}"
    image: shop/signer:1.0.0
    name: signer
status:
  phase: Running
"""
case("multi-line-values.yaml","env-secret","YAML 1.2 multi-line plain and double-quoted scalars (kubectl folds long strings)",t,[l1, l2, qw[0]+" "+qw[1], qw[2]],["GPG_PASSPHRASE","SIGNING_TOKEN","signer"],"the second line of multi-line values")

# 27 decoded copy
dv = rnd(24)
t = f"""$ kubectl get secret search-admin -n search -o yaml
apiVersion: v1
data:
  password: {b64(dv)}
  username: {b64('elastic')}
kind: Secret
metadata:
  name: search-admin
  namespace: search
type: Opaque
$ kubectl get secret search-admin -n search -o jsonpath='{{.data.password}}' | base64 -d
{dv}
$ kubectl logs -n search es-proxy-6d5f7c8b9-qq2wz --tail=2
2026-12-01T10:02:44Z WARN upstream rejected credentials elastic:{dv} for https://es.search.svc:9200
2026-12-01T10:02:45Z ERROR 401 Unauthorized from es.search.svc
"""
case("decoded-copy.txt","secret-data","a Secret value decoded with base64 -d, and logged, elsewhere in the paste",t,[b64(dv),dv],["search-admin","password","username","elastic","credentials"],"a decoded copy of a Secret value elsewhere in the paste")

# 28 names: ExternalSecret
espw = rnd(20)
t = f"""$ kubectl get externalsecret db-credentials -n shop -o yaml
apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata:
  name: db-credentials
  namespace: shop
spec:
  refreshInterval: 1h
  secretStoreRef:
    kind: ClusterSecretStore
    name: vault-backend
  target:
    name: db-credentials
    creationPolicy: Owner
  data:
  - secretKey: password
    remoteRef:
      key: shop/db
      property: password
  - secretKey: username
    remoteRef:
      key: shop/db
      property: username
  - secretKey: credentials
    remoteRef:
      key: shop/gcp
      property: credentials
status:
  conditions:
  - lastTransitionTime: "2026-12-01T09:40:02Z"
    message: could not get secret data from provider
    reason: SecretSyncedError
    status: "False"
    type: Ready
---
apiVersion: v1
kind: Pod
metadata:
  name: orders-5d8c7b6f4-p9x2z
  namespace: shop
spec:
  nodeName: pool-a-2
  containers:
  - name: orders
    image: shop/orders:5.0.1
    env:
    - name: DB_PASSWORD
      valueFrom:
        secretKeyRef:
          name: db-credentials
          key: password
    - name: CACHE_PASSWORD
      value: {espw}
status:
  phase: Pending
  containerStatuses:
  - name: orders
    image: shop/orders:5.0.1
    imageID: ""
    ready: false
    restartCount: 0
    state:
      waiting:
        reason: CreateContainerConfigError
        message: couldn't find key password in Secret shop/db-credentials
$ kubectl get events -n shop --field-selector involvedObject.name=orders-5d8c7b6f4-p9x2z
LAST SEEN   TYPE      REASON    OBJECT                       MESSAGE
12s         Warning   Failed    pod/orders-5d8c7b6f4-p9x2z   Error: couldn't find key password in Secret shop/db-credentials
"""
case("names-external-secret.yaml","env-secret","External Secrets Operator ExternalSecret spec.data[].secretKey (external-secrets.io/latest/api/externalsecret)",t,[espw],["secretKey: password","property: password","key: password","secretKey: credentials","property: credentials","couldn't find key password in Secret shop/db-credentials","db-credentials","vault-backend"],"names are not secrets: secretKey, property, the missing key")

# 29 ingress basic auth
ht = b64("admin:$apr1$" + rnd(8) + "$" + rnd(22) + "\n")
t = f"""$ kubectl get ingress admin -n shop -o yaml
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  annotations:
    nginx.ingress.kubernetes.io/auth-realm: Authentication Required
    nginx.ingress.kubernetes.io/auth-secret: basic-auth
    nginx.ingress.kubernetes.io/auth-type: basic
  name: admin
  namespace: shop
spec:
  ingressClassName: nginx
  rules:
  - host: admin.shop.example
    http:
      paths:
      - backend:
          service:
            name: admin
            port:
              number: 80
        path: /
        pathType: Prefix
---
apiVersion: v1
data:
  auth: {ht}
kind: Secret
metadata:
  name: basic-auth
  namespace: shop
type: Opaque
"""
case("names-ingress-basic-auth.yaml","secret-data","ingress-nginx basic authentication: auth-secret names a Secret (kubernetes.github.io/ingress-nginx/examples/auth/basic)",t,[ht],["auth-secret: basic-auth","name: basic-auth","auth-type: basic"],"names are not secrets: an auth-secret annotation")

# 30 flow secret data
f1 = rnd(20); f2 = rnd(20)
t = f"""$ cat app-secret.yaml
apiVersion: v1
kind: Secret
metadata: {{name: app, namespace: shop}}
type: Opaque
data: {{config: {b64(f1)}, other: {b64(f2)}}}
"""
case("flow-secret-data.yaml","secret-data","YAML flow mapping of a Secret's data (issue 28's example)",t,[b64(f1),b64(f2)],["config","other"],"a Secret's data as a flow map")

# 31 JSON list
j1 = rnd(24); j2 = rnd(30)
lst = {"apiVersion":"v1","items":[{"apiVersion":"v1","data":{"token":b64(j1)},"kind":"Secret","metadata":{"name":"ci-token","namespace":"ci"},"type":"Opaque"},{"apiVersion":"v1","data":{"webhook.url":b64("https://hooks.example/"+j2)},"kind":"Secret","metadata":{"name":"notify","namespace":"ci"},"type":"Opaque"}],"kind":"List","metadata":{"resourceVersion":""}}
t = "$ kubectl get secrets -n ci -o json\n" + json.dumps(lst, indent=4) + "\n"
case("json-secret-list.json","secret-data","kubectl get secrets -o json: a List of Secrets",t,[b64(j1),b64("https://hooks.example/"+j2)],["ci-token","notify","webhook.url"],"Secrets in a JSON List")

# 32 github token in clone URL
gh = "ghp_" + rnd(36)
t = f"""$ kubectl logs argocd-repo-server-6b9d7c5f4-tt8vq -n argocd | tail -2
time="2026-12-01T10:11:09Z" level=error msg="finished unary call with code Unknown" error="rpc error: code = Unknown desc = authentication required: git fetch https://shop-bot:{gh}@github.com/shop/deploy.git" grpc.code=Unknown
time="2026-12-01T10:11:10Z" level=info msg="manifest cache miss: 3f9e0d1/shop/deploy"
"""
case("github-token-url.txt","url-credential","GitHub personal access tokens, ghp_ prefix (docs.github.com/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats)",t,[gh],["shop-bot","github.com/shop/deploy.git","argocd-repo-server-6b9d7c5f4-tt8vq"],"a GitHub token in a git URL")

# 33 gitlab
gl = "glpat-" + rnd(20, A+"-_")
t = f"""$ kubectl describe secret gitlab-runner -n ci
Name:         gitlab-runner
Namespace:    ci
Labels:       <none>
Annotations:  <none>

Type:  Opaque

Data
====
runner-registration-token:  29 bytes
$ kubectl logs gitlab-runner-7c8d9b6f5-hh4ks -n ci --tail=1
WARNING: Checking for jobs... failed  runner={gl[:8]} status=401 Unauthorized token={gl}
"""
case("gitlab-token.txt","cloud-key","GitLab personal access tokens, glpat- prefix (docs.gitlab.com/ee/security/tokens/#token-prefixes)",t,[gl],["runner-registration-token","gitlab-runner","Unauthorized"],"glpat- token")

# 34 connection string
cs = rnd(18)
t = f"""$ kubectl logs reports-7f8d9c6b5-mn3lq -n shop --tail=2
2026-12-01 10:15:02 fail: Microsoft.EntityFrameworkCore.Database.Connection[20004] An error occurred using the connection to database 'Reports' on server 'sql.shop.svc'. Connection string: Server=sql.shop.svc,1433;Database=Reports;User Id=reports;Password={cs};TrustServerCertificate=True
2026-12-01 10:15:02 crit: Microsoft.Hosting.Lifetime[0] Application startup exception
"""
case("sqlserver-connection-string.txt","connection-string","ADO.NET connection strings, Password=…; (learn.microsoft.com/dotnet/framework/data/adonet/connection-string-syntax)",t,[cs],["sql.shop.svc","Reports","TrustServerCertificate"],"a password in a connection string")

# 35 postgres URL in env (describe)
pp = rnd(16)
t = f"""$ kubectl describe pod api-6c7d8f9b5-mm2pq -n shop | sed -n '/Environment:/,/Mounts:/p'
    Environment:
      DATABASE_URL:  postgres://api:{pp}@pg.shop.svc:5432/api?sslmode=require
      REDIS_URL:     redis://redis.shop.svc:6379/0
    Mounts:
"""
case("postgres-url-describe.txt","connection-string","libpq connection URIs postgresql://user:password@host (postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS)",t,[pp],["DATABASE_URL","pg.shop.svc","REDIS_URL"],"a password in a database URL")

# 36 env secret value in JSON pod
jp = rnd(26)
pod = {"apiVersion":"v1","kind":"Pod","metadata":{"name":"worker-0","namespace":"jobs"},"spec":{"containers":[{"name":"worker","image":"shop/worker:1.0","env":[{"name":"QUEUE_PASSWORD","value":jp},{"name":"QUEUE_HOST","value":"mq.jobs.svc"}]}],"nodeName":"pool-b-1"},"status":{"phase":"Running"}}
t = json.dumps(pod, indent=4) + "\n"
case("json-env-password.json","env-secret","kubectl get pod -o json: env name/value pairs",t,[jp],["QUEUE_PASSWORD","QUEUE_HOST","mq.jobs.svc"],"an env password in JSON")

# 37 MinIO Helm values: camelCase secretKey / accessKey hold the credentials themselves (verbatim from
# github.com/ai-dynamo/dynamo/pull/1258, a review of deploy/cloud/helm/platform/components/api-store/values.yaml;
# minioadmin is MinIO's documented default)
t = """minio:
  host: ""
  port: 9000
  accessKey: "minioadmin"
  accessKeySecret: ""       # New field for root-user secret name
  secretKey: "minioadmin"
  passwordSecret: ""
"""
case("minio-helm-values.yaml","env-secret","MinIO Helm chart values accessKey/secretKey (github.com/ai-dynamo/dynamo/pull/1258; min.io docs: MINIO_ROOT_USER/PASSWORD default minioadmin)",t,["minioadmin"],["accessKeySecret","passwordSecret","secretKey:","accessKey:"],"camelCase secretKey and accessKey hold secrets (MinIO)")

# 38 helm get values: camelCase keys holding secrets (helm's own 'USER-SUPPLIED VALUES:' header)
mk = rnd(20); ms = rnd(40, A+"/+"); oc = rnd(34, A+"~._-")
t = f"""$ helm get values minio -n storage
USER-SUPPLIED VALUES:
auth:
  existingSecret: ""
mode: standalone
oidc:
  clientId: minio-console
  clientSecret: {oc}
  configUrl: https://sso.shop.example/realms/shop/.well-known/openid-configuration
s3:
  accessKey: {mk}
  secretKey: {ms}
  bucket: backups
"""
case("helm-values-camelcase.txt","env-secret","helm get values prints USER-SUPPLIED VALUES: then the YAML (helm.sh/docs/helm/helm_get_values); OIDC client secrets (openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication)",t,[oc,mk,ms],["existingSecret","minio-console","clientId","backups","configUrl"],"camelCase accessKey, secretKey, clientSecret")

# 39 an ExternalSecret as kubectl prints it (keys sorted: remoteRef before secretKey; its last-applied
# JSON too), verbatim from github.com/external-secrets/external-secrets/issues/3094 up to its status;
# then the Secret it writes, composed in kubectl's format
c1 = b64("-----BEGIN CERTIFICATE-----\n" + rnd(64) + "\n-----END CERTIFICATE-----\n")
k1 = rnd(44)
t = f"""> kubectl get externalsecret/mytlssecret
apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {{"apiVersion":"external-secrets.io/v1beta1","kind":"ExternalSecret","metadata":{{"annotations":{{}},"name":"mytlssecret","namespace":"default"}},"spec":{{"data":[{{"remoteRef":{{"key":"prod/mytlssecret","property":"cert"}},"secretKey":"tls.crt"}},{{"remoteRef":{{"key":"prod/mytlssecret","property":"key"}},"secretKey":"tls.key"}}],"secretStoreRef":{{"kind":"ClusterSecretStore","name":"mystore"}}}}}}
  creationTimestamp: "2024-01-31T22:04:51Z"
  generation: 1
  name: mytlssecret
  namespace: default
  resourceVersion: "1461"
  uid: 380948f0-87ba-4399-93d4-e213e29fda6b
spec:
  data:
  - remoteRef:
      conversionStrategy: Default
      decodingStrategy: None
      key: prod/mytlssecret
      metadataPolicy: None
      property: cert
    secretKey: tls.crt
  - remoteRef:
      conversionStrategy: Default
      decodingStrategy: None
      key: prod/mytlssecret
      metadataPolicy: None
      property: key
    secretKey: tls.key
  refreshInterval: 1h
  secretStoreRef:
    kind: ClusterSecretStore
    name: mystore
  target:
    creationPolicy: Owner
    deletionPolicy: Retain
---
apiVersion: v1
data:
  tls.crt: {c1}
  tls.key: {b64(k1)}
kind: Secret
metadata:
  name: mytlssecret
  namespace: default
type: Opaque
"""
case("names-external-secret-sorted.yaml","secret-data","External Secrets Operator as kubectl prints it (github.com/external-secrets/external-secrets/issues/3094)",t,[c1,b64(k1)],["secretKey: tls.crt","secretKey: tls.key",'"secretKey":"tls.crt"','"secretKey":"tls.key"',"property: key","prod/mytlssecret","mystore"],"names are not secrets: secretKey after remoteRef, also in last-applied")

# 40 the word credentials in an event: kubelet's pull error from the registry (Docker's "no basic auth
# credentials") beside the Secret the Pod should have named
dj = b64(json.dumps({"auths":{"registry.shop.example":{"auth":b64("puller:" + rnd(22))}}}, separators=(',',':')))
t = f"""$ kubectl get events -n shop --field-selector involvedObject.name=billing-7d9c8b5f6-2xkqp
LAST SEEN   TYPE      REASON    OBJECT                        MESSAGE
41s         Normal    Pulling   pod/billing-7d9c8b5f6-2xkqp   Pulling image "registry.shop.example/billing:3.2.0"
40s         Warning   Failed    pod/billing-7d9c8b5f6-2xkqp   Failed to pull image "registry.shop.example/billing:3.2.0": rpc error: code = Unknown desc = Error response from daemon: Get "https://registry.shop.example/v2/billing/manifests/3.2.0": no basic auth credentials
40s         Warning   Failed    pod/billing-7d9c8b5f6-2xkqp   Error: ErrImagePull
$ kubectl get secret registry-credentials -n shop -o yaml
apiVersion: v1
data:
  .dockerconfigjson: {dj}
kind: Secret
metadata:
  name: registry-credentials
  namespace: shop
type: kubernetes.io/dockerconfigjson
"""
case("event-credentials-word.txt","docker-config","Docker registry auth error 'no basic auth credentials' (moby/moby registry/auth.go) in a kubelet Failed event",t,[dj],["no basic auth credentials","registry-credentials","ErrImagePull"],"names are not secrets: the word credentials in an event")

# 41 last-applied Secret in block YAML (the value twice: data and the annotation's JSON)
la = rnd(24)
t = f"""$ kubectl get secret session -n shop -o yaml
apiVersion: v1
data:
  session-key: {b64(la)}
kind: Secret
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {{"apiVersion":"v1","data":{{"session-key":"{b64(la)}"}},"kind":"Secret","metadata":{{"annotations":{{}},"name":"session","namespace":"shop"}},"type":"Opaque"}}
  creationTimestamp: "2026-11-30T08:01:12Z"
  name: session
  namespace: shop
  resourceVersion: "771203"
  uid: 0c9d8e7f-6a5b-4c3d-9e8f-7a6b5c4d3e2f
type: Opaque
"""
case("last-applied-secret.yaml","secret-data","kubectl apply keeps the applied object in kubectl.kubernetes.io/last-applied-configuration (kubernetes.io/docs/tasks/manage-kubernetes-objects/declarative-config)",t,[b64(la)],["session-key","session","last-applied-configuration"],"a Secret's data in block YAML and in last-applied")

# 42 kubeconfig credentials (kubectl config view --raw)
kt = rnd(40, string.ascii_lowercase + string.digits); kk = b64("-----BEGIN RSA PRIVATE KEY-----\n" + rnd(64) + "\n-----END RSA PRIVATE KEY-----\n")
ca = b64("-----BEGIN CERTIFICATE-----\nMIIC" + rnd(60) + "\n-----END CERTIFICATE-----\n")
t = f"""$ kubectl config view --raw
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: {ca}
    server: https://10.20.0.10:6443
  name: shop-prod
contexts:
- context:
    cluster: shop-prod
    user: deployer
  name: deployer@shop-prod
current-context: deployer@shop-prod
kind: Config
preferences: {{}}
users:
- name: deployer
  user:
    token: {kt}
- name: admin
  user:
    client-key-data: {kk}
"""
case("kubeconfig.yaml","kubeconfig-credential","kubeconfig users[].user token and client-key-data (kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig)",t,[kt,kk],["shop-prod","deployer@shop-prod","client-key-data","certificate-authority-data",ca],"kubeconfig user credentials")

# 43 an env file inside a ConfigMap (a dotenv block: KEY=value lines)
ep = rnd(18); et = rnd(32)
t = f"""$ kubectl get configmap api-env -n shop -o yaml
apiVersion: v1
data:
  app.env: |
    DB_HOST=pg.shop.svc
    DB_USER=api
    DB_PASSWORD={ep}
    STRIPE_WEBHOOK_TOKEN={et}
    LOG_LEVEL=info
kind: ConfigMap
metadata:
  name: api-env
  namespace: shop
"""
case("configmap-env-file.yaml","env-secret","dotenv files KEY=value (docker docs: --env-file) mounted from a ConfigMap's data",t,[ep,et],["DB_HOST=pg.shop.svc","DB_USER=api","DB_PASSWORD","STRIPE_WEBHOOK_TOKEN","LOG_LEVEL=info"],"an env file inside a ConfigMap")

json.dump(cases, open(os.path.join(out, "expect.json"), "w"), indent=1, ensure_ascii=False)
print(len(cases))
