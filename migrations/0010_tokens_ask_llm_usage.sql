CREATE TABLE "llm_usage" (
	"day" date NOT NULL,
	"purpose" text NOT NULL,
	"provider" text NOT NULL,
	"run_id" uuid NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "llm_usage_day_purpose_provider_run_id_pk" PRIMARY KEY("day","purpose","provider","run_id")
);
--> statement-breakpoint
CREATE TABLE "access_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"token_key" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "access_tokens_token_key_unique" UNIQUE("token_key"),
	CONSTRAINT "access_tokens_user_name_uq" UNIQUE("user_id","name")
);
--> statement-breakpoint
CREATE TABLE "ask_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"question" text NOT NULL,
	"language" text NOT NULL,
	"answer" text NOT NULL,
	"abstained" boolean NOT NULL,
	"method" text NOT NULL,
	"citations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_history" ADD CONSTRAINT "ask_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "llm_usage_run_idx" ON "llm_usage" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "ask_history_user_idx" ON "ask_history" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);