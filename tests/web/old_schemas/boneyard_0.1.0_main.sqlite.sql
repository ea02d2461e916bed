CREATE TABLE account_seats (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	account_id VARCHAR(32) NOT NULL, 
	created FLOAT NOT NULL, 
	PRIMARY KEY (game_id, seat)
);
CREATE TABLE accounts (
	id VARCHAR(32) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	"key" VARCHAR(40) NOT NULL, 
	look VARCHAR(200) NOT NULL, 
	password_hash VARCHAR(200) NOT NULL, 
	person_id VARCHAR(32), 
	created FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE ("key")
);
CREATE TABLE actions (
	game_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	action INTEGER NOT NULL, 
	player INTEGER NOT NULL, 
	PRIMARY KEY (game_id, seq), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE bot_jobs (
	id INTEGER NOT NULL, 
	"key" VARCHAR(80) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	priority INTEGER NOT NULL, 
	client VARCHAR(64) DEFAULT '' NOT NULL, 
	args JSON NOT NULL, 
	budget FLOAT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	attempts INTEGER NOT NULL, 
	worker VARCHAR(128), 
	lease_until FLOAT, 
	result INTEGER, 
	error TEXT, 
	created FLOAT NOT NULL, 
	finished FLOAT, 
	PRIMARY KEY (id), 
	UNIQUE ("key")
);
CREATE TABLE challenges (
	id VARCHAR(32) NOT NULL, 
	challenger VARCHAR(32) NOT NULL, 
	challenged VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	clock VARCHAR(20) NOT NULL, 
	rated BOOLEAN NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	links JSON, 
	created FLOAT NOT NULL, 
	answered FLOAT, 
	PRIMARY KEY (id)
);
CREATE TABLE clocks (
	game_id VARCHAR(32) NOT NULL, 
	control JSON NOT NULL, 
	remaining JSON NOT NULL, 
	started JSON NOT NULL, 
	running INTEGER, 
	since FLOAT NOT NULL, 
	at_seq INTEGER NOT NULL, 
	version INTEGER NOT NULL, 
	deadline FLOAT, 
	PRIMARY KEY (game_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
CREATE TABLE continuing_games (
	pair VARCHAR(140) NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	PRIMARY KEY (pair)
);
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	params JSON NOT NULL, 
	seed VARCHAR(128) NOT NULL, 
	seed_hash VARCHAR(64) NOT NULL, 
	seats JSON NOT NULL, 
	created FLOAT NOT NULL, 
	finished BOOLEAN NOT NULL, 
	returns TEXT, 
	PRIMARY KEY (id)
);
CREATE TABLE ladder_progress (
	account_id VARCHAR(32) NOT NULL, 
	progress JSON NOT NULL, 
	PRIMARY KEY (account_id)
);
CREATE TABLE owner_addresses (
	account_id VARCHAR(32) NOT NULL, 
	address_hash VARCHAR(64) NOT NULL, 
	last_seen FLOAT NOT NULL, 
	PRIMARY KEY (account_id, address_hash)
);
CREATE TABLE passkey_challenges (
	id VARCHAR(32) NOT NULL, 
	challenge BLOB NOT NULL, 
	account_id VARCHAR(32), 
	created FLOAT NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE passkeys (
	credential_id VARCHAR(1400) NOT NULL, 
	account_id VARCHAR(32) NOT NULL, 
	public_key BLOB NOT NULL, 
	sign_count INTEGER NOT NULL, 
	created FLOAT NOT NULL, 
	PRIMARY KEY (credential_id)
);
CREATE TABLE people (
	id VARCHAR(32) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	secret_hash VARCHAR(64) NOT NULL, 
	created FLOAT NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE rated_games (
	game_id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	settled BOOLEAN NOT NULL, 
	changes JSON, 
	unrated VARCHAR(16), 
	PRIMARY KEY (game_id)
);
CREATE TABLE ratings (
	account_id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	rating FLOAT NOT NULL, 
	deviation FLOAT NOT NULL, 
	volatility FLOAT NOT NULL, 
	games INTEGER NOT NULL, 
	updated FLOAT NOT NULL, 
	PRIMARY KEY (account_id, game)
);
CREATE TABLE recovery_codes (
	code_hash VARCHAR(64) NOT NULL, 
	account_id VARCHAR(32) NOT NULL, 
	PRIMARY KEY (code_hash)
);
CREATE TABLE seeks (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	seeker VARCHAR(64) NOT NULL, 
	account_id VARCHAR(32), 
	name VARCHAR(40) NOT NULL, 
	rating FLOAT NOT NULL, 
	created FLOAT NOT NULL, 
	seen FLOAT NOT NULL, 
	taken BOOLEAN NOT NULL, 
	url VARCHAR(200), 
	PRIMARY KEY (id)
);
CREATE TABLE series_games (
	game_id VARCHAR(32) NOT NULL, 
	series_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	members JSON NOT NULL, 
	people JSON NOT NULL, 
	next_game VARCHAR(32), 
	open_seats JSON NOT NULL, 
	listed BOOLEAN NOT NULL, 
	created FLOAT NOT NULL, 
	carried JSON NOT NULL, 
	PRIMARY KEY (game_id)
);
CREATE TABLE session_events (
	game_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	at_seq INTEGER NOT NULL, 
	kind VARCHAR(32) NOT NULL, 
	seat INTEGER, 
	detail JSON NOT NULL, 
	time FLOAT NOT NULL, 
	PRIMARY KEY (game_id, number)
);
CREATE TABLE sign_ins (
	id_hash VARCHAR(64) NOT NULL, 
	account_id VARCHAR(32) NOT NULL, 
	created FLOAT NOT NULL, 
	last_seen FLOAT NOT NULL, 
	PRIMARY KEY (id_hash)
);
CREATE TABLE tournament_games (
	game_id VARCHAR(32) NOT NULL, 
	tournament_id VARCHAR(32) NOT NULL, 
	accounts JSON NOT NULL, 
	scored BOOLEAN NOT NULL, 
	PRIMARY KEY (game_id)
);
CREATE TABLE tournament_players (
	tournament_id VARCHAR(32) NOT NULL, 
	account_id VARCHAR(32) NOT NULL, 
	name VARCHAR(40) NOT NULL, 
	score INTEGER NOT NULL, 
	streak INTEGER NOT NULL, 
	sheet JSON NOT NULL, 
	firsts INTEGER NOT NULL, 
	withdrawn BOOLEAN NOT NULL, 
	game_id VARCHAR(32), 
	paired_at FLOAT NOT NULL, 
	free_since FLOAT NOT NULL, 
	last_opponent VARCHAR(32), 
	joined FLOAT NOT NULL, 
	PRIMARY KEY (tournament_id, account_id)
);
CREATE TABLE tournaments (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	minutes FLOAT NOT NULL, 
	clock JSON NOT NULL, 
	creator VARCHAR(40) NOT NULL, 
	created FLOAT NOT NULL, 
	starts FLOAT NOT NULL, 
	ends FLOAT NOT NULL, 
	finished BOOLEAN NOT NULL, 
	version INTEGER NOT NULL, 
	PRIMARY KEY (id)
);
CREATE INDEX bot_jobs_by_turn ON bot_jobs (status, priority, id);
CREATE INDEX ix_account_seats_account_id ON account_seats (account_id);
CREATE INDEX ix_accounts_look ON accounts (look);
CREATE INDEX ix_challenges_challenged ON challenges (challenged);
CREATE INDEX ix_challenges_challenger ON challenges (challenger);
CREATE INDEX ix_clocks_deadline ON clocks (deadline);
CREATE INDEX ix_passkeys_account_id ON passkeys (account_id);
CREATE INDEX ix_recovery_codes_account_id ON recovery_codes (account_id);
CREATE INDEX ix_seeks_game ON seeks (game);
CREATE INDEX ix_series_games_series_id ON series_games (series_id);
CREATE INDEX ix_sign_ins_account_id ON sign_ins (account_id);
CREATE INDEX ix_tournament_games_tournament_id ON tournament_games (tournament_id);
CREATE INDEX ix_tournaments_finished ON tournaments (finished);
CREATE INDEX ix_tournaments_starts ON tournaments (starts);
