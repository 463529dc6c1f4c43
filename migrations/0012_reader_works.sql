CREATE TABLE "article_references" (
	"article_id" uuid NOT NULL,
	"ref_key" text NOT NULL,
	CONSTRAINT "article_references_article_id_ref_key_pk" PRIMARY KEY("article_id","ref_key")
);
--> statement-breakpoint
CREATE TABLE "work_decisions" (
	"kind" text NOT NULL,
	"article_a" uuid NOT NULL,
	"article_b" uuid NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_decisions_article_a_article_b_pk" PRIMARY KEY("article_a","article_b")
);
--> statement-breakpoint
CREATE TABLE "work_fingerprints" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"shingles" integer NOT NULL,
	"signature" text,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_identifier_links" (
	"from_key" text NOT NULL,
	"to_key" text NOT NULL,
	"evidence" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_identifier_links_from_key_to_key_pk" PRIMARY KEY("from_key","to_key")
);
--> statement-breakpoint
CREATE TABLE "work_text_bands" (
	"band" smallint NOT NULL,
	"key" integer NOT NULL,
	"article_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "work_text_bands_band_key_article_id_pk" PRIMARY KEY("band","key","article_id")
);
--> statement-breakpoint
CREATE TABLE "works" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"head_article_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "works_head_article_id_unique" UNIQUE("head_article_id")
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "reader_summary_block" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "work_id" uuid;--> statement-breakpoint
ALTER TABLE "article_references" ADD CONSTRAINT "article_references_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_decisions" ADD CONSTRAINT "work_decisions_article_a_articles_id_fk" FOREIGN KEY ("article_a") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_decisions" ADD CONSTRAINT "work_decisions_article_b_articles_id_fk" FOREIGN KEY ("article_b") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_decisions" ADD CONSTRAINT "work_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_fingerprints" ADD CONSTRAINT "work_fingerprints_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_text_bands" ADD CONSTRAINT "work_text_bands_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "works" ADD CONSTRAINT "works_head_article_id_articles_id_fk" FOREIGN KEY ("head_article_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_references_key_idx" ON "article_references" USING btree ("ref_key");--> statement-breakpoint
CREATE INDEX "work_decisions_b_idx" ON "work_decisions" USING btree ("article_b");--> statement-breakpoint
CREATE INDEX "work_identifier_links_to_idx" ON "work_identifier_links" USING btree ("to_key");--> statement-breakpoint
CREATE INDEX "work_text_bands_article_idx" ON "work_text_bands" USING btree ("article_id");--> statement-breakpoint
CREATE INDEX "articles_work_idx" ON "articles" USING btree ("work_id") WHERE "articles"."work_id" is not null;